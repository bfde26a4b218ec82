import { describe, expect, it } from 'vitest';
import {
  AGENT_EXPIRY_MS,
  AgentRegistry,
  MAX_GONE_AGENTS,
  UNTRACKED_GRACE_MS,
} from '../../../../core/agents/registry.ts';
import { HISTORY_MS, MAX_BANDS, MAX_MARKS } from '../../../../core/agents/history.ts';
import type { TunnelSession } from '../../../../shared/api/kinds/tunnel-sessions.ts';
import type { ProfileSnapshot } from '../../../../shared/app/monitor.ts';
import { session, successor } from '../../../support/tunnel-sessions.ts';

const PROFILE = 'p1';

/** A registry on a clock the test moves, and the polls it is fed. */
function registry(start = 1_000_000) {
  let now = start;
  let polls = 0;
  const agents = new AgentRegistry(() => now);
  return {
    agents,
    at: () => now,
    advance: (ms: number) => (now += ms),
    /** One successful poll listing `sessions`, `missing` those the monitor still tracks. */
    poll(sessions: TunnelSession[], missing: TunnelSession[] = []): boolean {
      polls += 1;
      const snapshot: ProfileSnapshot = {
        profileId: PROFILE,
        health: 'ok',
        healthReason: null,
        sessions,
        missing: missing.map((s) => ({ session: s, polls: 1 })),
        lastPollAt: now,
        polls,
        pages: 1,
        intervalMs: 5_000,
      };
      return agents.applySnapshot(snapshot);
    },
    list: () => agents.snapshot(PROFILE).profiles[0]?.agents ?? [],
  };
}

describe('the agent registry', () => {
  it('changes nothing on a snapshot with no new successful poll', () => {
    const r = registry();
    expect(r.poll([session()])).toBe(true);
    const snapshot = r.agents.snapshot(PROFILE).profiles[0];
    expect(
      r.agents.applySnapshot({
        profileId: PROFILE,
        health: 'unreachable',
        healthReason: 'down',
        sessions: [],
        lastPollAt: r.at(),
        polls: 1,
        pages: 1,
        intervalMs: 5_000,
      }),
    ).toBe(false);
    expect(r.agents.snapshot(PROFILE).profiles[0]).toEqual(snapshot);
  });

  it('takes an agent the monitor no longer tracks (a quiet start) for lost, then offline after the grace', () => {
    const r = registry();
    const gone = session({ metadata: 'gone' });
    r.poll([gone]);
    r.advance(5_000);
    r.poll([]);
    expect(r.list()[0]?.state).toBe('lost');
    r.advance(5_000);
    r.poll([]);
    expect(r.list()[0]?.state).toBe('lost');
    r.advance(UNTRACKED_GRACE_MS);
    r.poll([]);
    expect(r.list()[0]).toMatchObject({
      state: 'offline',
      since: r.at() - UNTRACKED_GRACE_MS - 10_000,
    });
  });

  it('keeps an agent that is back on a new session, with no offline, and forgets its update answer', () => {
    const r = registry();
    const first = session({ metadata: 'steady' });
    r.poll([first]);
    const entry = r.agents.entries()[0];
    if (!entry) throw new Error('no agent');
    entry.agent.updateBlocked = 'checks off';
    entry.blockedFor = first.id;
    r.advance(5_000);
    r.poll([first]);
    expect(r.list()[0]?.updateBlocked).toBe('checks off');
    const next = successor(first);
    r.poll([next]);
    expect(r.list()).toMatchObject([
      { state: 'online', session: { id: next.id }, updateBlocked: null },
    ]);
    expect(r.list()[0]?.history.marks).toEqual([]);
  });

  it('keeps an agent moved by update-and-restart online while the monitor still holds its old session', () => {
    const r = registry();
    const old = session({ metadata: 'upgraded' });
    r.poll([old]);
    const next = successor(old, { agent_version: '3.3.0' });
    r.agents.applyAction({
      phase: 'done',
      action: 'update-and-restart',
      profileId: PROFILE,
      sessionId: old.id,
      agent: 'upgraded',
      result: {
        ok: true,
        action: 'update-and-restart',
        profileId: PROFILE,
        sessionId: old.id,
        successor: next,
        version: { before: '3.1.2', after: '3.3.0' },
      },
    });
    r.advance(5_000);
    r.poll([], [old]);
    r.advance(5_000);
    r.poll([], [old]);
    expect(r.list()[0]).toMatchObject({
      state: 'online',
      session: { id: next.id },
      note: 'updated 3.1.2 → 3.3.0',
    });
  });

  it('keeps at most a day, MAX_MARKS marks and MAX_BANDS bands, bands of one state never side by side', () => {
    const r = registry();
    const flapping = session({ metadata: 'flapping' });
    r.poll([flapping]);
    for (let i = 0; i < 400; i++) {
      r.advance(60_000);
      r.agents.applyEvent({
        kind: 'offline',
        profileId: PROFILE,
        at: r.at(),
        sessions: [flapping],
      });
      r.advance(60_000);
      r.poll([flapping]);
      r.poll([flapping]);
    }
    const { history } = r.list()[0] ?? { history: { bands: [], marks: [] } };
    expect(history.marks.length).toBeLessThanOrEqual(MAX_MARKS);
    expect(history.bands.length).toBeLessThanOrEqual(MAX_BANDS);
    for (let i = 1; i < history.bands.length; i++)
      expect(history.bands[i]?.state).not.toBe(history.bands[i - 1]?.state);
    expect(history.bands.at(-1)).toMatchObject({ state: 'online', to: null });
    r.advance(HISTORY_MS + 1);
    const day = r.list()[0]?.history;
    expect(day?.marks).toEqual([]);
    expect(day?.bands).toEqual([{ state: 'online', from: r.at() - HISTORY_MS, to: null }]);
  });

  it('drops a gone agent after a week, and keeps at most MAX_GONE_AGENTS gone ones per profile', () => {
    const r = registry();
    const many = Array.from({ length: MAX_GONE_AGENTS + 5 }, (_, i) =>
      session({ metadata: `agent ${i}` }),
    );
    r.poll(many);
    for (const s of many) {
      r.advance(1_000);
      r.agents.applyEvent({ kind: 'offline', profileId: PROFILE, at: r.at(), sessions: [s] });
    }
    expect(r.agents.expire()).toBe(true);
    const left = r.list();
    expect(left).toHaveLength(MAX_GONE_AGENTS);
    // The longest gone left first.
    expect(left.map((a) => a.name)).not.toContain('agent 0');
    expect(left.map((a) => a.name)).toContain(`agent ${MAX_GONE_AGENTS + 4}`);
    r.advance(AGENT_EXPIRY_MS);
    expect(r.agents.expire()).toBe(true);
    expect(r.list()).toEqual([]);
  });

  it('dismisses only a gone agent, naming the field', () => {
    const r = registry();
    const s = session({ metadata: 'here' });
    r.poll([s]);
    const id = r.list()[0]?.id ?? '';
    expect(() => r.agents.dismiss(PROFILE, id)).toThrow(
      expect.objectContaining({ code: 'AGENTS_NOT_GONE', field: 'agentId' }),
    );
    expect(() => r.agents.dismiss(PROFILE, 'ag_nope')).toThrow(
      expect.objectContaining({ code: 'AGENTS_NO_AGENT', field: 'agentId' }),
    );
    r.agents.applyEvent({ kind: 'stopped', profileId: PROFILE, at: r.at(), session: s });
    r.agents.dismiss(PROFILE, id);
    expect(r.list()).toEqual([]);
  });

  it('loads a command in progress as online: its run did not outlive Burrow', () => {
    const r = registry();
    const s = session({ metadata: 'restarting' });
    r.poll([s]);
    r.agents.applyAction({
      phase: 'sent',
      action: 'update-and-restart',
      command: 'restart',
      profileId: PROFILE,
      sessionId: s.id,
    });
    expect(r.list()[0]).toMatchObject({ state: 'restarting', step: { name: 'restarting' } });
    const again = registry();
    again.agents.load(r.agents.entries());
    expect(again.list()[0]).toMatchObject({ state: 'online', step: null });
  });
});
