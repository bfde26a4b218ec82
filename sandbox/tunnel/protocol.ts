/**
 * The agent protocol: JSON text messages over one WebSocket per tunnel session, at
 * AGENT_PATH of the sandbox's HTTP server. The agent speaks first (hello, once), the server
 * answers online or refused; then the server sends commands and the agent answers each with a
 * result of the same seq. Every message is validated here, on both sides.
 */
import { z } from 'zod';
import { Metadata } from '../../shared/api/values/common.ts';
import type { ErrorName } from '../../shared/api/errors/errors.ts';
import { TUNNEL_SESSION_COMMANDS } from '../../shared/api/kinds/tunnel-sessions.ts';
import { isAgentVersion } from './releases.ts';

/** Outside the API namespace, so that no API path can ever collide with it. */
export const AGENT_PATH = '/_agent/v2';

/** The WebSocket URL of the agent endpoint of a sandbox whose API is at `apiUrl`. */
export function agentUrlOf(apiUrl: string): string {
  const url = new URL(apiUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${AGENT_PATH}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

export const AGENT_OSES = ['linux', 'darwin', 'windows'] as const;
export type AgentOs = (typeof AGENT_OSES)[number];

export const DEFAULT_REGION = 'us';

/** A peer's address as its session shows it: a dual-stack socket's IPv4-mapped IPv6 as the IPv4. */
export function sessionIp(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/** The command failures an agent reports itself: it alone knows its OS and its update state. */
const AGENT_COMMAND_ERRORS = [
  'restartUnsupportedOnWindows',
  'noUpdateAvailable',
  'updateChecksDisabled',
  'alreadyUpdating',
  'updatedAwaitingRestart',
] as const satisfies readonly ErrorName[];
export type AgentCommandError = (typeof AGENT_COMMAND_ERRORS)[number];

const AgentVersion = z
  .string()
  .refine(isAgentVersion, 'must be a version X.Y.Z of plain decimal numbers');

const MAX_BINDS = 64;

export const Hello = z.strictObject({
  type: z.literal('hello'),
  authtoken: z.string().min(1).max(512),
  version: AgentVersion,
  os: z.enum(AGENT_OSES),
  region: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a region identifier such as "us" or "eu"')
    .optional(),
  metadata: Metadata.optional(),
  /** Domains, `key=value` labels or `host:port` addresses, each checked against the ACL. */
  binds: z.array(z.string().min(1).max(512)).max(MAX_BINDS),
  update_checks: z.boolean(),
});
export type Hello = z.infer<typeof Hello>;

const Result = z
  .strictObject({
    type: z.literal('result'),
    seq: z.int().nonnegative(),
    ok: z.boolean(),
    error: z.enum(AGENT_COMMAND_ERRORS).optional(),
  })
  .refine((r) => r.ok === (r.error === undefined), {
    message: 'a result is ok exactly when it carries no error',
  });
export type Result = z.infer<typeof Result>;

/** Everything an agent may send. */
export const AgentMessage = z.discriminatedUnion('type', [Hello, Result]);
export type AgentMessage = z.infer<typeof AgentMessage>;

const Online = z.strictObject({
  type: z.literal('online'),
  session_id: z.string(),
  /** The platform's released agent versions: what an update may move to. */
  releases: z.array(AgentVersion),
});
export type Online = z.infer<typeof Online>;

const REFUSALS = [
  /** No tunnel credential has this authtoken (or it was deleted). */
  'authtokenInvalid',
  /** A bind the credential's ACL does not permit. */
  'bindNotPermitted',
  /** The credential was deleted while the session was online. */
  'credentialDeleted',
] as const;
export type Refusal = (typeof REFUSALS)[number];

const Refused = z.strictObject({
  type: z.literal('refused'),
  code: z.enum(REFUSALS),
  message: z.string(),
});
export type Refused = z.infer<typeof Refused>;

const Command = z.strictObject({
  type: z.literal('command'),
  seq: z.int().nonnegative(),
  name: z.enum(TUNNEL_SESSION_COMMANDS),
});
export type Command = z.infer<typeof Command>;

/** Everything the server may send. */
export const ServerMessage = z.discriminatedUnion('type', [Online, Refused, Command]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** WebSocket close codes of the protocol (4000–4999 are the application's). */
export const CLOSE = {
  /** The server refused the hello, or revoked the session; a `refused` message precedes it. */
  refused: 4001,
  /** A message that does not parse, or that is not expected now. */
  protocolError: 4002,
  /** No hello within the server's wait. */
  helloTimeout: 4003,
  /** The agent stops or restarts. */
  agentLeaving: 1000,
  /** The sandbox shuts down; agents reconnect with backoff. */
  serverGoingAway: 1001,
} as const;

/** A message, checked: the value, or one line saying what is wrong with it. */
export function parseMessage<S extends z.ZodType>(
  schema: S,
  data: string,
): { ok: true; value: z.output<S> } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { ok: false, reason: 'message is not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `invalid message: ${where}${issue?.message ?? 'unknown shape'}` };
}
