import { describe, expect, it } from 'vitest';
import { notify, pauseUntil } from '../../../../core/notify/policy.ts';
import { agentKey, type MonitorEvent } from '../../../../shared/monitor.ts';
import {
  INITIAL_NOTIFY_STATE,
  Notification,
  NotifyState,
  type NotifyInput,
  type NotifyPrefs,
} from '../../../../shared/notifications.ts';
import { Settings } from '../../../../shared/ipc/settings.ts';
import { session, successor } from '../../../support/tunnel-sessions.ts';

/** The preferences of a person who changed nothing: every kind on. */
const DEFAULT_PREFS: NotifyPrefs = {
  kinds: Settings.parse({}).notifications,
  mutedAgents: [],
  doNotDisturbUntil: null,
};

const NOW = Date.parse('2026-11-23T10:00:00Z');
const a = session({ metadata: 'web' });
const b = session({ metadata: 'db' });

const offline = (...sessions: ReturnType<typeof session>[]): MonitorEvent => ({
  kind: 'offline',
  profileId: 'p1',
  at: NOW,
  sessions,
});

function run(
  events: NotifyInput[],
  prefs: Partial<NotifyPrefs> = {},
  state = INITIAL_NOTIFY_STATE,
  now = NOW,
) {
  return notify({
    events,
    prefs: { ...DEFAULT_PREFS, ...prefs },
    state,
    now,
    profileNames: { p1: 'Acme' },
  });
}

describe('notify', () => {
  it('tells an offline agent, with a target to open, as plain JSON', () => {
    const { notifications, state } = run([offline(a)]);
    expect(notifications).toEqual([
      {
        id: expect.any(String),
        kind: 'offline',
        title: 'Agent offline',
        body: 'web · linux · us · 127.0.0.1: went offline',
        target: { type: 'session', profileId: 'p1', sessionId: a.id },
      },
    ]);
    expect(Notification.array().parse(JSON.parse(JSON.stringify(notifications)))).toEqual(
      notifications,
    );
    expect(NotifyState.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('says restarted and updated with the versions; nothing for online and stopped', () => {
    const a2 = successor(a, { agent_version: '3.3.0' });
    const { notifications } = run([
      { kind: 'online', profileId: 'p1', at: NOW, session: b },
      { kind: 'stopped', profileId: 'p1', at: NOW, session: b },
      { kind: 'updated', profileId: 'p1', at: NOW, session: a2, previous: a },
    ]);
    expect(notifications.map((n) => [n.title, n.body])).toEqual([
      ['Agent updated', 'web · linux · us · 127.0.0.1: now runs 3.3.0 (was 3.1.2)'],
    ]);
  });

  it('keeps to the switches of each kind', () => {
    const kinds = { ...DEFAULT_PREFS.kinds, offline: false, apiHealth: false };
    const { notifications } = run(
      [
        offline(a),
        { kind: 'unreachable', profileId: 'p1', at: NOW, reason: 'no route' },
        { kind: 'restarted', profileId: 'p1', at: NOW, session: successor(b), previous: b },
      ],
      { kinds },
    );
    expect(notifications.map((n) => n.kind)).toEqual(['restarted']);
  });

  it('mutes an agent by its key', () => {
    const { notifications } = run([offline(a, b)], { mutedAgents: [agentKey(a)] });
    expect(notifications.map((n) => n.target)).toEqual([
      { type: 'session', profileId: 'p1', sessionId: b.id },
    ]);
  });

  it('shows nothing during do-not-disturb, and again after it', () => {
    expect(run([offline(a)], { doNotDisturbUntil: NOW + 1 }).notifications).toEqual([]);
    expect(run([offline(a)], { doNotDisturbUntil: NOW }).notifications).toHaveLength(1);
  });

  it('tells an agent at most once a minute', () => {
    const first = run([offline(a)]);
    const a2 = successor(a);
    const soon = run(
      [{ kind: 'restarted', profileId: 'p1', at: NOW, session: a2, previous: a }],
      {},
      first.state,
      NOW + 59_999,
    );
    expect(soon.notifications).toEqual([]);
    const later = run([offline(a2)], {}, soon.state, NOW + 60_000);
    expect(later.notifications).toHaveLength(1);
  });

  it('groups more than three agents of one kind into one notification', () => {
    const three = [1, 2, 3].map((i) => session({ metadata: `t${i}` }));
    expect(run([offline(...three)]).notifications).toHaveLength(3);
    const fifty = Array.from({ length: 50 }, (_, i) => session({ metadata: `agent ${i}` }));
    const { notifications, state } = run([offline(...fifty)]);
    expect(notifications).toEqual([
      {
        id: expect.any(String),
        kind: 'offline',
        title: 'Acme: 50 agents went offline',
        body: expect.stringMatching(/^agent 0 · linux · us · 127\.0\.0\.1; .* and 47 more\.$/),
        target: { type: 'sessions', profileId: 'p1' },
      },
    ]);
    // Each agent of the group counts for the throttle.
    expect(Object.keys(state.lastShown)).toHaveLength(50);
  });

  it('tells the API’s health per profile, and a certificate’s end', () => {
    const { notifications } = run([
      {
        kind: 'unauthorized',
        profileId: 'p1',
        at: NOW,
        reason: 'Unknown API key',
        errorCode: 'ERR_SERVICE_203',
      },
      { kind: 'recovered', profileId: 'p2', at: NOW },
      {
        kind: 'certificate-expiring',
        certId: 'sshcert_1',
        name: 'deploy key',
        expiresAt: new Date(NOW + 3 * 86_400_000 + 1000).toISOString(),
        at: NOW,
      },
    ]);
    expect(notifications.map((n) => [n.title, n.body, n.target])).toEqual([
      [
        'Acme: API key refused',
        "Unknown API key. Check the profile's API key.",
        { type: 'profile', profileId: 'p1' },
      ],
      [
        'p2: API reachable again',
        'Sessions are monitored again.',
        { type: 'profile', profileId: 'p2' },
      ],
      [
        'Certificate expiring',
        'deploy key expires in 3 days.',
        { type: 'certificate', certId: 'sshcert_1' },
      ],
    ]);
  });

  it('forgets what is more than a minute old', () => {
    const state = { lastShown: { old: NOW - 60_000, fresh: NOW - 1 } };
    expect(run([], {}, state).state).toEqual({ lastShown: { fresh: NOW - 1 } });
  });
});

describe('pauseUntil', () => {
  it('pauses for an hour, or until eight tomorrow morning', () => {
    expect(pauseUntil('hour', NOW)).toBe(NOW + 3_600_000);
    const tomorrow = new Date(pauseUntil('tomorrow', NOW));
    expect(tomorrow.getHours()).toBe(8);
    expect(tomorrow.getTime() - NOW).toBeGreaterThan(0);
    expect(tomorrow.getTime() - NOW).toBeLessThanOrEqual(32 * 3_600_000);
  });
});
