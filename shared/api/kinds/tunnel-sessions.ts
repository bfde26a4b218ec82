import { z } from 'zod';
import { Ref, UtcTimestamp } from '../values/common.ts';
import { idSchema } from '../values/ids.ts';

export const TUNNEL_TRANSPORTS = ['service/v2', 'ssh'] as const;

/** An online agent. Sessions exist only while connected: no created_at, no description. */
export const TunnelSession = z.looseObject({
  id: idSchema('tunnelSession'),
  uri: z.url(),
  agent_version: z.string(),
  credential: Ref,
  ip: z.string(),
  metadata: z.string().optional(),
  os: z.string(),
  region: z.string(),
  started_at: UtcTimestamp,
  transport: z.enum(TUNNEL_TRANSPORTS),
});
export type TunnelSession = z.output<typeof TunnelSession>;

export const TUNNEL_SESSION_COMMANDS = ['restart', 'stop', 'update'] as const;
export type TunnelSessionCommandName = (typeof TUNNEL_SESSION_COMMANDS)[number];

/** restart, stop and update all take an empty JSON object. */
export const TunnelSessionCommand = z.strictObject({});
export type TunnelSessionCommand = z.input<typeof TunnelSessionCommand>;
