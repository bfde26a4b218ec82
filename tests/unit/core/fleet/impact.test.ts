import { describe, expect, it } from 'vitest';
import { bulkSummary } from '../../../../core/fleet/bulk.ts';
import { impactOf, refKey, rolloutImpactOf } from '../../../../core/fleet/impact.ts';
import type { TunnelSession } from '../../../../shared/api/kinds/tunnel-sessions.ts';
import type { Agent } from '../../../../shared/app/agents.ts';
import { session } from '../../../support/tunnel-sessions.ts';
import { listedAgent } from '../../../support/listed-agents.ts';

function agent(
  profileId: string,
  name: string,
  of: Partial<TunnelSession> = {},
  more: Partial<Agent> = {},
): Agent {
  return listedAgent(name, { profileId, session: session({ metadata: name, ...of }), ...more });
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

describe('rolloutImpactOf', () => {
  // Local: a box behind, an old Mac alone in its major, a Windows box on the newest 3.x, one
  // with update checks off (said by an earlier answer), one offline. Staging runs 3.1.2 and
  // 3.0.0: behind Local's 3.3.0, as the "outdated" filter compares across profiles.
  const local = [
    agent('local', 'behind', { agent_version: '3.1.2' }),
    agent('local', 'laptop', { os: 'darwin', agent_version: '2.9.3' }),
    agent('local', 'office-pc', { os: 'windows', agent_version: '3.3.0' }),
    agent('local', 'win-behind', { os: 'windows', agent_version: '3.0.0' }),
    agent(
      'local',
      'pinned',
      { agent_version: '3.0.0' },
      { updateBlocked: "The agent's configuration turns update checks off." },
    ),
    agent('local', 'gone', { agent_version: '3.0.0' }, { state: 'offline' }),
  ];
  const staging = [agent('staging', 's-1'), agent('staging', 's-2', { agent_version: '3.0.0' })];
  const all = [...local, ...staging];
  const map = new Map(all.map((a) => [refKey({ profileId: a.profileId, agentId: a.id }), a]));
  const refsOf = (list: typeof all) => list.map((a) => ({ profileId: a.profileId, agentId: a.id }));

  it('says who updates, who cannot and why, and who likely has nothing newer', () => {
    const impact = rolloutImpactOf(refsOf(all), map);
    const names = (list: { agentId: string }[]) =>
      list.map((ref) => all.find((a) => a.id === ref.agentId)?.name);
    expect(names(impact.included)).toEqual(['behind', 'win-behind', 's-1', 's-2']);
    expect(impact.windows).toBe(1);
    expect(impact.profiles).toBe(2);
    expect(impact.leftOut.map((l) => [l.name, l.reason])).toEqual([
      ['pinned', expect.stringMatching(/update checks off/)],
      ['gone', 'Not online (offline).'],
    ]);
    // The newest of its major among every profile's agents.
    expect(impact.unsure.map((l) => [l.name, l.reason])).toEqual([
      ['laptop', 'Already on 2.9.3, the newest 2.x among your agents: no newer version is known.'],
      [
        'office-pc',
        'Already on 3.3.0, the newest 3.x among your agents: no newer version is known.',
      ],
    ]);
    expect(impact.summary).toBe(
      'Update and restart 4 agents on 2 profiles; 1 runs Windows: updated only, restart by hand; 2 already run the newest version known; 2 cannot update now.',
    );
  });

  it('says so when none can update', () => {
    const impact = rolloutImpactOf(refsOf([local[5] as Agent]), map);
    expect(impact.summary).toBe('No agent can be updated; 1 cannot update now.');
  });
});
