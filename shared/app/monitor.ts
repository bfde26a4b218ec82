import { z } from 'zod';
import { TunnelSession } from '../api/kinds/tunnel-sessions.ts';

/*
 * What the session monitor tells the app: its events and its snapshot, as plain JSON, so that
 * the IPC contract can carry them as they are. Times are epoch milliseconds.
 */

/**
 * The API as one profile's monitor last found it. `unknown` until the first poll ends;
 * `unavailable` when the profile cannot be polled at all (its key is not in the keychain, there
 * is no keychain, the Local sandbox did not start): `healthReason` says why and what to do.
 */
const MonitorHealth = z.enum([
  'unknown',
  'ok',
  'unreachable',
  'unauthorized',
  'rate-limited',
  'unavailable',
]);
export type MonitorHealth = z.output<typeof MonitorHealth>;

/** What every event about a profile carries: which profile, and when. */
export const profileEvent = { profileId: z.string(), at: z.number() };

export const MonitorEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('online'), ...profileEvent, session: TunnelSession }),
  /** Every session a poll confirmed gone: a burst of agents lost together is one event. */
  z.object({
    kind: z.literal('offline'),
    ...profileEvent,
    sessions: z.array(TunnelSession).min(1),
  }),
  /** The same agent (see agentKey) came back with a new session id and the same or an older version. */
  z.object({
    kind: z.literal('restarted'),
    ...profileEvent,
    session: TunnelSession,
    previous: TunnelSession,
  }),
  /** The same agent came back running a newer version. */
  z.object({
    kind: z.literal('updated'),
    ...profileEvent,
    session: TunnelSession,
    previous: TunnelSession,
  }),
  /** Gone after a stop command of ours. */
  z.object({ kind: z.literal('stopped'), ...profileEvent, session: TunnelSession }),
  z.object({ kind: z.literal('unreachable'), ...profileEvent, reason: z.string() }),
  z.object({
    kind: z.literal('unauthorized'),
    ...profileEvent,
    reason: z.string(),
    errorCode: z.string().nullable(),
  }),
  /** The API answers again after `unreachable` or `unauthorized`. */
  z.object({ kind: z.literal('recovered'), ...profileEvent }),
]);
export type MonitorEvent = z.output<typeof MonitorEvent>;

const ProfileSnapshot = z.object({
  profileId: z.string(),
  health: MonitorHealth,
  /** Why the health is not ok, ready to show; null when it is. */
  healthReason: z.string().nullable(),
  /** The sessions the last successful poll listed. */
  sessions: z.array(TunnelSession),
  /**
   * Sessions the last successful polls did not list, not yet confirmed gone (a restart on its
   * way back, or an agent lost), with how many polls in a row missed them.
   */
  missing: z.array(z.object({ session: TunnelSession, polls: z.int() })).optional(),
  lastPollAt: z.number().nullable(),
  /** Successful polls since the profile was added. */
  polls: z.number().int(),
  /** Pages the last successful poll read (100 sessions a page). */
  pages: z.number().int(),
  /** The current wait between polls, stretched by what the last poll cost (pages, retries). */
  intervalMs: z.number(),
});
export type ProfileSnapshot = z.output<typeof ProfileSnapshot>;

/** A profile that cannot be polled at all, with the reason to show: no polls, no sessions. */
export function unavailableSnapshot(profileId: string, reason: string): ProfileSnapshot {
  return {
    profileId,
    health: 'unavailable',
    healthReason: reason,
    sessions: [],
    lastPollAt: null,
    polls: 0,
    pages: 0,
    intervalMs: 0,
  };
}

export const MonitorSnapshot = z.object({
  paused: z.boolean(),
  profiles: z.array(ProfileSnapshot),
});
export type MonitorSnapshot = z.output<typeof MonitorSnapshot>;

/** `3.1.2` → 3; a version that is not X.Y.Z (an SSH client's `OpenSSH_9.2p1`) is its own line. */
function versionLine(version: string): string {
  const major = /^(\d+)\.\d+\.\d+$/.exec(version)?.[1];
  return major ?? version;
}

/**
 * Who an agent is, across its sessions: a restart reconnects with a new session id but the same
 * credential, address, OS, region, metadata and version line (an update never changes the major
 * version). Also the key a person mutes an agent by.
 */
export function agentKey(session: TunnelSession): string {
  return JSON.stringify([
    session.credential.id,
    session.ip,
    session.os,
    session.region,
    session.metadata ?? '',
    session.transport,
    versionLine(session.agent_version),
  ]);
}

function versionParts(version: string): number[] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  return match ? match.slice(1).map(Number) : undefined;
}

/** True when `a` is a later X.Y.Z than `b`; versions of other forms are never newer. */
export function isNewerVersion(a: string, b: string): boolean {
  const [pa, pb] = [versionParts(a), versionParts(b)];
  if (!pa || !pb) return false;
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) > (pb[i] ?? 0);
  return false;
}

/** Keys that name a machine, in the order people reach for them, in JSON metadata. */
const NAME_KEYS = ['name', 'hostname', 'host', 'label', 'device', 'id'];
const NAME_LENGTH = 40;

function shorten(text: string): string {
  const chars = [...text];
  return chars.length > NAME_LENGTH ? `${chars.slice(0, NAME_LENGTH - 1).join('')}…` : text;
}

/**
 * What a person calls the agent, from its metadata: the name of JSON metadata
 * (`{"host":"build-box"}` is `build-box`), the plain values of JSON without one
 * (`region eu, team ops`), or the metadata itself; undefined when it has none.
 */
export function agentName(session: TunnelSession): string | undefined {
  const metadata = session.metadata?.trim();
  if (!metadata) return undefined;
  let parsed: unknown;
  try {
    parsed = metadata.startsWith('{') ? JSON.parse(metadata) : undefined;
  } catch {
    // Not JSON after all: the text is the name.
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return shorten(metadata);
  const fields = Object.entries(parsed).filter(
    (entry): entry is [string, string | number] =>
      (typeof entry[1] === 'string' && entry[1].trim() !== '') || typeof entry[1] === 'number',
  );
  const named = NAME_KEYS.map((key) => fields.find(([k]) => k.toLowerCase() === key)).find(
    (field) => field !== undefined,
  );
  if (named) return shorten(String(named[1]).trim());
  return fields.length > 0
    ? shorten(fields.map(([k, v]) => `${k} ${String(v).trim()}`).join(', '))
    : shorten(metadata);
}

/** Where an agent runs: `linux · us · 127.0.0.1`. */
export function agentMachine(session: TunnelSession): string {
  return `${session.os} · ${session.region} · ${session.ip}`;
}

/** What the lists and notifications call an agent: its name, else where it runs. */
export function agentDisplayName(session: TunnelSession): string {
  return agentName(session) ?? agentMachine(session);
}
