import { describe, expect, it } from 'vitest';
import { bulkSummary } from '../../../../core/fleet/bulk.ts';
import { impactOf, refKey } from '../../../../core/fleet/impact.ts';
import type { TunnelSession } from '../../../../shared/api/tunnel-sessions.ts';
import type { Agent, AgentState } from '../../../../shared/app/agents.ts';
import { session } from '../../../support/tunnel-sessions.ts';

function agent(
  profileId: string,
  name: string,
  of: Partial<TunnelSession> = {},
  more: Partial<Agent> = {},
): Agent {
  return {
    id: `ag_${name}`,
    profileId,
    key: name,
    name,
    state: 'online' as AgentState,
    since: 0,
    session: session({ metadata: name, ...of }),
    lastSeenAt: 0,
    note: null,
    updateBlocked: null,
    step: null,
    history: { bands: [], marks: [] },
    ...more,
  };
}

const fleet = [
  agent('acme', 'web'),
  agent('acme', 'db'),
  agent('globex', 'ci'),
  agent('acme', 'win-1', { os: 'windows' }),
  agent('globex', 'win-2', { os: 'windows' }),
  agent('globex', 'win-3', { os: 'windows' }),
  agent('acme', 'gone', {}, { state: 'offline' }),
  agent(
    'acme',
    'pinned',
    {},
    { updateBlocked: "The agent's configuration turns update checks off." },
  ),
];
const known = new Map(fleet.map((a) => [refKey({ profileId: a.profileId, agentId: a.id }), a]));
const refs = fleet.map((a) => ({ profileId: a.profileId, agentId: a.id }));

describe('impactOf', () => {
  it('says what a restart leaves out and why, in one sentence', () => {
    const impact = impactOf('restart', refs.slice(0, 6), known);
    expect(impact.summary).toBe(
      'Restart 3 agents on 2 profiles; 3 run on Windows and cannot be restarted remotely: they are left out.',
    );
    expect(impact.included).toHaveLength(3);
    expect(impact.leftOut.map((l) => l.reason)).toEqual(
      Array(3).fill('Restart is not supported on Windows agents.'),
    );
  });

  it('leaves out offline agents, those that cannot update and those no longer known', () => {
    const unknown = { profileId: 'acme', agentId: 'ag_dismissed' };
    const impact = impactOf('update', [...refs, unknown], known);
    expect(impact.summary).toBe(
      'Update 6 agents on 2 profiles; 1 is not online, 1 cannot update now, 1 is no longer known: they are left out.',
    );
    expect(impact.leftOut.find((l) => l.name === 'pinned')?.reason).toMatch(/update checks off/);
  });

  it('says so when nothing is left', () => {
    const impact = impactOf('restart', refs.slice(3, 4), known);
    expect(impact.summary).toBe(
      'No agent can be restarted; 1 runs on Windows and cannot be restarted remotely: it is left out.',
    );
  });

  it('sums results up with the short reason of each failure', () => {
    const impact = impactOf('update', refs.slice(0, 3), known);
    const fail = (errorCode: string) => ({
      agent: refs[0]!,
      name: 'web',
      since: 0,
      result: {
        ok: false as const,
        action: 'update' as const,
        profileId: 'acme',
        sessionId: 'ts_1',
        step: 'update' as const,
        reason: 'words',
        errorCode,
        operationId: null,
      },
    });
    const ok = {
      agent: refs[1]!,
      name: 'db',
      since: 0,
      result: {
        ok: true as const,
        action: 'update' as const,
        profileId: 'acme',
        sessionId: 'ts_2',
      },
    };
    expect(bulkSummary(impact, [ok, fail('ERR_SERVICE_333'), fail('ERR_SERVICE_332')])).toBe(
      '1 updated, 1 failed (update checks off), 1 failed (nothing newer)',
    );
  });
});
