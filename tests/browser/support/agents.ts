import { agentId, type Agent, type AgentsSnapshot } from '../../../shared/app/agents.ts';
import type { AgentRef, BulkImpact } from '../../../shared/app/fleet.ts';
import type { MonitorSnapshot } from '../../../shared/app/monitor.ts';
import { session as someSession } from '../../support/tunnel-sessions.ts';

const HOUR = 3_600_000;

/** An online agent named `name` of `profileId`, a day online behind it, as core reports one. */
export function someAgent(profileId: string, name: string, overrides: Partial<Agent> = {}): Agent {
  const now = Date.now();
  return {
    id: agentId(profileId, name),
    profileId,
    key: `key-${name}`,
    name,
    state: 'online',
    since: now - HOUR,
    session: someSession({ metadata: name, ip: '10.0.0.7', region: 'eu' }),
    lastSeenAt: now,
    note: null,
    updateBlocked: null,
    step: null,
    history: { bands: [{ state: 'online', from: now - 24 * HOUR, to: null }], marks: [] },
    ...overrides,
  };
}

/** Core's agents: each profile's, as given. */
export function agentsOf(profiles: Record<string, Agent[]>): AgentsSnapshot {
  return {
    profiles: Object.entries(profiles).map(([profileId, agents]) => ({ profileId, agents })),
  };
}

/** The monitor's word that the profiles are watched (the Sessions screen waits for it). */
export function watched(...profileIds: string[]): MonitorSnapshot {
  return {
    paused: false,
    profiles: profileIds.map((profileId) => ({
      profileId,
      health: 'ok',
      healthReason: null,
      sessions: [],
      lastPollAt: 0,
      polls: 1,
      pages: 1,
      intervalMs: 15_000,
    })),
  };
}

/** What core says `fleet.impact` would do to the one agent `ref`: restart it, leaving none out. */
export function restartOne(ref: AgentRef): BulkImpact {
  return {
    action: 'restart',
    included: [ref],
    leftOut: [],
    profiles: 1,
    summary: 'Restart 1 agent on 1 profile.',
  };
}
