import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';

let counter = 0;

/** A listed session as the API renders it; each call a new session id unless one is given. */
export function session(overrides: Partial<TunnelSession> = {}): TunnelSession {
  counter += 1;
  const id = overrides.id ?? `ts_${String(counter).padStart(27, '0')}`;
  return {
    id,
    uri: `http://127.0.0.1:4040/tunnel_sessions/${id}`,
    agent_version: '3.1.2',
    credential: { id: 'cr_1', uri: 'http://127.0.0.1:4040/credentials/cr_1' },
    ip: '127.0.0.1',
    metadata: 'agent a',
    os: 'linux',
    region: 'us',
    started_at: '2026-11-23T09:00:00.000Z',
    transport: 'service/v2',
    ...overrides,
  };
}

/** The same agent after a restart: a new session id, the rest as given. */
export function successor(
  of: TunnelSession,
  overrides: Partial<TunnelSession> = {},
): TunnelSession {
  const next = session();
  return { ...of, id: next.id, uri: next.uri, ...overrides };
}
