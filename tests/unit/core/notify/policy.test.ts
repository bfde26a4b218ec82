import { describe, expect, it } from 'vitest';
import { notify, pauseUntil } from '../../../../core/notify/policy.ts';
import { agentId } from '../../../../shared/app/agents.ts';
import { agentKey, type MonitorEvent } from '../../../../shared/app/monitor.ts';
import { notificationRoute, routeHref } from '../../../../shared/app/routes.ts';
import {
  INITIAL_NOTIFY_STATE,
  Notification,
  NotifyState,
  type NotifyInput,
  type NotifyPrefs,
} from '../../../../shared/app/notifications.ts';
import { Settings } from '../../../../shared/app/ipc/settings.ts';
import { session, successor } from '../../../support/tunnel-sessions.ts';
import { clockTime } from '../../../../shared/app/clock.ts';

/** The preferences of a person who changed nothing: every kind on. */
const DEFAULT_PREFS: NotifyPrefs = {
  kinds: Settings.parse({}).notifications,
  mutedAgents: [],
  doNotDisturbUntil: null,
};

const NOW = new Date(2026, 10, 23, 10, 0).getTime();
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
  profileNames: Record<string, string> = { p1: 'Acme', p2: 'Globex' },
) {
  return notify({ events, prefs: { ...DEFAULT_PREFS, ...prefs }, state, now, profileNames });
}

describe('notify', () => {
  it('tells an offline agent by name, its profile, when and where, with its detail to open, as plain JSON', () => {
    const { notifications, state } = run([offline(a)]);
    expect(notifications).toEqual([
      {
        id: expect.any(String),
        kind: 'offline',
        tone: 'problem',
        title: 'Acme: web went offline',
        body: `Gone at ${clockTime(NOW, NOW)}. linux · us · 127.0.0.1`,
        target: { type: 'agent', profileId: 'p1', agentId: agentId('p1', agentKey(a)) },
        actions: ['open', 'mute'],
        agent: { profileId: 'p1', sessionId: a.id, agentKey: agentKey(a) },
        // Activity has the profile in a column, and the moment as the window gives moments.
        record: { title: 'web went offline', detail: 'Gone. linux · us · 127.0.0.1' },
      },
    ]);
    expect(routeHref(notificationRoute(notifications[0]!.target))).toBe(
      `#/sessions?profile=p1&agent=${agentId('p1', agentKey(a))}`,
    );
    expect(Notification.array().parse(JSON.parse(JSON.stringify(notifications)))).toEqual(
      notifications,
    );
    expect(NotifyState.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('names the profile only when there is more than one', () => {
    const one = run([offline(a)], {}, INITIAL_NOTIFY_STATE, NOW, { p1: 'Acme' });
    expect(one.notifications.map((n) => n.title)).toEqual(['web went offline']);
    const five = Array.from({ length: 5 }, (_, i) => session({ metadata: `agent ${i}` }));
    const group = run([offline(...five)], {}, INITIAL_NOTIFY_STATE, NOW, { p1: 'Acme' });
    expect(group.notifications.map((n) => n.title)).toEqual(['5 agents went offline']);
  });

  it('says restarted and updated with the versions and the time; nothing for online and stopped', () => {
    const a2 = successor(a, { agent_version: '3.3.0' });
    const unnamed = session({ metadata: '' });
    const at = NOW - 5 * 60_000;
    const { notifications } = run([
      { kind: 'online', profileId: 'p1', at, session: b },
      { kind: 'stopped', profileId: 'p1', at, session: b },
      { kind: 'updated', profileId: 'p1', at, session: a2, previous: a },
      { kind: 'restarted', profileId: 'p2', at, session: successor(unnamed), previous: unnamed },
    ]);
    expect(notifications.map((n) => [n.title, n.body, n.actions])).toEqual([
      [
        'Acme: web updated to 3.3.0',
        `Back at ${clockTime(at, NOW)}, was 3.1.2. linux · us · 127.0.0.1`,
        ['open', 'restart', 'mute'],
      ],
      [
        'Globex: linux · us · 127.0.0.1 restarted',
        `Back at ${clockTime(at, NOW)} with a new session, running 3.1.2.`,
        ['open', 'restart', 'mute'],
      ],
    ]);
  });

  it('offers no Restart for a Windows agent, whose restart the API refuses', () => {
    const w = session({ metadata: 'win', os: 'windows' });
    const { notifications } = run([
      { kind: 'restarted', profileId: 'p1', at: NOW, session: successor(w), previous: w },
    ]);
    expect(notifications.map((n) => n.actions)).toEqual([['open', 'mute']]);
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
    expect(notifications.map((n) => n.agent?.sessionId)).toEqual([b.id]);
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
        tone: 'problem',
        title: 'Acme: 50 agents went offline',
        body: `agent 0, agent 1, agent 2 and 47 more, at ${clockTime(NOW, NOW)}.`,
        target: { type: 'sessions', profileId: 'p1' },
        actions: ['open'],
        record: {
          title: '50 agents went offline',
          detail: 'agent 0, agent 1, agent 2 and 47 more.',
        },
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
        'Globex: API reachable again',
        'Sessions are monitored again.',
        { type: 'profile', profileId: 'p2' },
      ],
      [
        'Certificate expiring',
        'deploy key expires in 3 days.',
        { type: 'certificate', certId: 'sshcert_1' },
      ],
    ]);
    // An API back reads as good news, not as one more problem.
    expect(notifications.map((n) => n.tone)).toEqual(['problem', 'good', 'problem']);
  });

  it('forgets what is more than a minute old', () => {
    const state = { lastShown: { old: NOW - 60_000, fresh: NOW - 1 } };
    expect(run([], {}, state).state).toEqual({ lastShown: { fresh: NOW - 1 } });
  });
});

describe('a drift found', () => {
  const found = (driftId: string): NotifyInput => ({
    kind: 'drift-found',
    profileId: 'p1',
    at: NOW,
    driftId,
    summary: '1 edge updated, 2 IP policies created',
  });

  it("is told in its words, opening its profile's drift, unless its switch is off or do not disturb", () => {
    const { notifications } = run([found('0123456789abcdef')]);
    expect(notifications).toMatchObject([
      {
        kind: 'drift',
        title: 'Acme changed outside Burrow: 1 edge updated, 2 IP policies created',
        target: { type: 'drift', profileId: 'p1' },
      },
    ]);
    const off = { ...DEFAULT_PREFS.kinds, drift: false };
    expect(run([found('0123456789abcdef')], { kinds: off }).notifications).toEqual([]);
    expect(run([found('0123456789abcdef')], { doNotDisturbUntil: NOW + 1 }).notifications).toEqual(
      [],
    );
  });

  it('is told again within the minute when it is another drift', () => {
    const first = run([found('0123456789abcdef')]);
    expect(run([found('fedcba9876543210')], {}, first.state).notifications).toHaveLength(1);
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
