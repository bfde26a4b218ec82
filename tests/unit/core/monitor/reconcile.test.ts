import { describe, expect, it } from 'vitest';
import type { TunnelSession } from '../../../../shared/api/kinds/tunnel-sessions.ts';
import {
  MISSING_POLLS_FOR_OFFLINE_WHILE_RECONNECTING,
  reconcile,
  type Expectation,
  type ReconcileMode,
  type Tracked,
} from '../../../../core/monitor/reconcile.ts';
import { session, successor } from '../../../support/tunnel-sessions.ts';

type State = { tracked: Map<string, Tracked>; expectations: Map<string, Expectation> };

const empty = (): State => ({ tracked: new Map(), expectations: new Map() });

function poll(state: State, listed: TunnelSession[], mode: ReconcileMode = 'normal', now = 0) {
  const result = reconcile({ profileId: 'p', ...state, listed, mode, now, at: 1_000 + now });
  state.tracked = result.tracked;
  state.expectations = result.expectations;
  return result.events.map((e) => ({
    kind: e.kind,
    ids:
      'sessions' in e ? e.sessions.map((s) => s.id) : 'session' in e ? [e.session.id] : undefined,
  }));
}

describe('reconcile', () => {
  const a = session({ metadata: 'a' });
  const b = session({ metadata: 'b' });

  it('starts quietly: what is listed at start-up is no news', () => {
    const state = empty();
    expect(poll(state, [a, b], 'quiet')).toEqual([]);
    expect([...state.tracked.keys()]).toEqual([a.id, b.id]);
  });

  it('says online for a new session', () => {
    const state = empty();
    poll(state, [a], 'quiet');
    expect(poll(state, [a, b])).toEqual([{ kind: 'online', ids: [b.id] }]);
  });

  it('says offline only when two polls in a row miss a session', () => {
    const state = empty();
    poll(state, [a, b], 'quiet');
    expect(poll(state, [a])).toEqual([]);
    expect(poll(state, [a])).toEqual([{ kind: 'offline', ids: [b.id] }]);
    expect(poll(state, [a])).toEqual([]);
  });

  it('forgets a miss when the session is listed again', () => {
    const state = empty();
    poll(state, [a, b], 'quiet');
    poll(state, [a]);
    expect(poll(state, [a, b])).toEqual([]);
    expect(poll(state, [a])).toEqual([]);
  });

  it('groups the sessions one poll confirms gone into one event', () => {
    const many = Array.from({ length: 50 }, (_, i) => session({ metadata: `m${i}` }));
    const state = empty();
    poll(state, [a, ...many], 'quiet');
    poll(state, [a]);
    const events = poll(state, [a]);
    expect(events).toHaveLength(1);
    expect(events[0]?.ids).toHaveLength(50);
  });

  it('says restarted, not offline and online, when the agent comes back with a new id', () => {
    const state = empty();
    poll(state, [a, b], 'quiet');
    const a2 = successor(a);
    expect(poll(state, [a2, b])).toEqual([{ kind: 'restarted', ids: [a2.id] }]);
    expect(poll(state, [a2, b])).toEqual([]);
  });

  it('says restarted when the new session shows up a poll after the old one went', () => {
    const state = empty();
    poll(state, [a, b], 'quiet');
    expect(poll(state, [b])).toEqual([]);
    const a2 = successor(a);
    expect(poll(state, [a2, b])).toEqual([{ kind: 'restarted', ids: [a2.id] }]);
  });

  it('says updated when the same agent comes back newer, within its major version', () => {
    const state = empty();
    poll(state, [a], 'quiet');
    const a2 = successor(a, { agent_version: '3.3.0' });
    expect(poll(state, [a2])).toEqual([{ kind: 'updated', ids: [a2.id] }]);
  });

  it('takes another major version, another address or other metadata for another agent', () => {
    for (const change of [{ agent_version: '4.0.1' }, { ip: '10.0.0.2' }, { metadata: 'z' }]) {
      const state = empty();
      poll(state, [a], 'quiet');
      const other = successor(a, change);
      expect(poll(state, [other])).toEqual([{ kind: 'online', ids: [other.id] }]);
    }
  });

  it('says stopped at once for a session we stopped', () => {
    const state = empty();
    poll(state, [a, b], 'quiet');
    state.expectations.set(a.id, { command: 'stop', until: 60_000 });
    expect(poll(state, [b])).toEqual([{ kind: 'stopped', ids: [a.id] }]);
    expect(poll(state, [b])).toEqual([]);
  });

  it('holds the offline of a session we restarted until its expectation ends', () => {
    const state = empty();
    poll(state, [a], 'quiet');
    state.expectations.set(a.id, { command: 'restart', until: 60_000 });
    expect(poll(state, [], 'normal', 10_000)).toEqual([]);
    expect(poll(state, [], 'normal', 20_000)).toEqual([]);
    const a2 = successor(a);
    expect(poll(state, [a2], 'normal', 30_000)).toEqual([{ kind: 'restarted', ids: [a2.id] }]);
    expect(state.expectations.size).toBe(0);
  });

  it('reports a restarted session that never came back once the expectation ends', () => {
    const state = empty();
    poll(state, [a], 'quiet');
    state.expectations.set(a.id, { command: 'restart', until: 60_000 });
    poll(state, [], 'normal', 10_000);
    poll(state, [], 'normal', 20_000);
    expect(poll(state, [], 'normal', 61_000)).toEqual([{ kind: 'offline', ids: [a.id] }]);
  });

  it('after an outage, matches reconnected agents silently and still finds the lost ones', () => {
    const state = empty();
    poll(state, [a, b], 'quiet');
    expect(poll(state, [], 'reconnect')).toEqual([]);
    const a2 = successor(a);
    expect(poll(state, [a2], 'reconnect')).toEqual([]);
    expect(poll(state, [a2], 'reconnect')).toEqual([]);
    expect(poll(state, [a2])).toEqual([{ kind: 'offline', ids: [b.id] }]);
  });

  it('pairs identical agents one to one', () => {
    const twin = successor(a);
    const state = empty();
    poll(state, [a, twin], 'quiet');
    const [a2, a3, a4] = [successor(a), successor(a), successor(a)];
    const events = poll(state, [a2, a3, a4]);
    expect(events.map((e) => e.kind).sort()).toEqual(['online', 'restarted', 'restarted']);
  });

  it('says offline in bounded time even when the API keeps it reconnecting, and forgets it', () => {
    const state = empty();
    poll(state, [a, b], 'quiet');
    const gone = Array.from({ length: 50 }, (_, i) => session({ metadata: `gone-${i}` }));
    poll(state, [a, b, ...gone]);
    const told = [];
    for (let i = 0; i < MISSING_POLLS_FOR_OFFLINE_WHILE_RECONNECTING; i++)
      told.push(...poll(state, [a, b], 'reconnect'));
    expect(told).toEqual([{ kind: 'offline', ids: gone.map((s) => s.id) }]);
    // Nothing vanished piles up, however long the flapping goes on.
    expect([...state.tracked.keys()]).toEqual([a.id, b.id]);
  });
});
