import { agentId } from '../../shared/agents.ts';
import { agentKey, agentName, type MonitorSnapshot } from '../../shared/monitor.ts';
import type { TrayServiceOptions } from './service.ts';

/**
 * The sessions the monitor lists, as online agents, for as long as core has no agents service:
 * the tray then knows no offline agent.
 */
export function monitorAgents(watched: {
  snapshot(): MonitorSnapshot;
  onSnapshot(listener: () => void): () => void;
}): TrayServiceOptions['agents'] {
  return {
    snapshot: () => ({
      profiles: watched.snapshot().profiles.map(({ profileId, sessions, lastPollAt }) => ({
        profileId,
        agents: sessions.map((session) => ({
          id: agentId(profileId, agentKey(session)),
          name: agentName(session) ?? `${session.os} · ${session.region} · ${session.ip}`,
          state: 'online' as const,
          session,
          lastSeenAt: lastPollAt ?? 0,
          updateBlocked: null,
        })),
      })),
    }),
    subscribe: (listener) => watched.onSnapshot(listener),
  };
}
