import { describe, expect, it } from 'vitest';
import { quietUntil } from '../../../../core/notify/alert-rules.ts';
import { Notifier } from '../../../../core/notify/notifier.ts';
import type { NewActivityEntry } from '../../../../shared/app/activity.ts';
import type { AlertRules } from '../../../../shared/app/ipc/settings.ts';
import type { Notification } from '../../../../shared/app/notifications.ts';
import { session, successor } from '../../../support/tunnel-sessions.ts';
import { memorySettings, recordedActions } from '../support.ts';

const MINUTE = 60_000;
const P1 = 'prf_00000001';

/** A wall clock that moves only when told, and runs the timers it passed. */
function fakeClock(start: number) {
  let now = start;
  let timers: { at: number; run: () => void }[] = [];
  return {
    now: () => now,
    setTimer(run: () => void, ms: number) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return { cancel: () => void (timers = timers.filter((t) => t !== timer)) };
    },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const next = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        now = next.at;
        next.run();
      }
      now = until;
    },
  };
}

function setup(
  rules: Partial<AlertRules>,
  start = new Date(2026, 10, 23, 10, 0).getTime(),
  names: Record<string, string> = { [P1]: 'Acme' },
) {
  const settings = memorySettings();
  settings.update({ alerts: { [P1]: rules } });
  const clock = fakeClock(start);
  const recorded: NewActivityEntry[] = [];
  const notifier = new Notifier({
    settings,
    profileNames: () => names,
    runSession: recordedActions().runSession,
    mute: () => undefined,
    record: (entry) => recorded.push(entry),
    now: clock.now,
    setTimer: (run, ms) => clock.setTimer(run, ms),
  });
  const shown: Notification[] = [];
  notifier.onNotification((n) => shown.push(n));
  return { notifier, shown, recorded, clock };
}

const web = session({ metadata: 'web' });

describe('offline for longer than', () => {
  it('tells an agent gone only when the chosen minutes are up, and records it held meanwhile', () => {
    const { notifier, shown, recorded, clock } = setup({ offlineAfterMinutes: 5 });
    notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [web] });
    clock.advance(4 * MINUTE);
    expect(shown).toEqual([]);
    expect(recorded).toMatchObject([{ kind: 'notice', held: 'rule', title: 'web went offline' }]);
    clock.advance(MINUTE);
    expect(shown.map((n) => n.title)).toEqual(['web went offline']);
    expect(recorded[1]).not.toHaveProperty('held');
  });

  it('tells nothing of an agent back before its minutes are up, not even its return', () => {
    const { notifier, shown, clock } = setup({ offlineAfterMinutes: 1 });
    notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [web] });
    clock.advance(30_000);
    notifier.hear({ kind: 'online', profileId: P1, at: clock.now(), session: web });
    clock.advance(10 * MINUTE);
    expect(shown).toEqual([]);
  });

  it('tells at once by default, as before the rules', () => {
    const { notifier, shown, clock } = setup({});
    notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [web] });
    expect(shown.map((n) => n.title)).toEqual(['web went offline']);
  });
});

describe('back online', () => {
  it('tells an agent back whose offline was told, unless switched off', () => {
    for (const backOnline of [true, false]) {
      const { notifier, shown, clock } = setup({ backOnline });
      notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [web] });
      clock.advance(2 * MINUTE);
      notifier.hear({ kind: 'online', profileId: P1, at: clock.now(), session: web });
      expect(shown.map((n) => n.title)).toEqual(
        backOnline ? ['web went offline', 'web is back online'] : ['web went offline'],
      );
    }
  });

  it('tells a return seconds after the offline was told: the throttle of its offline is no reason', () => {
    const { notifier, shown, clock } = setup({ offlineAfterMinutes: 1 });
    notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [web] });
    clock.advance(MINUTE);
    clock.advance(10_000);
    notifier.hear({ kind: 'online', profileId: P1, at: clock.now(), session: web });
    expect(shown.map((n) => n.title)).toEqual(['web went offline', 'web is back online']);
  });

  it('is not told for an agent whose offline was never told', () => {
    const { notifier, shown, clock } = setup({});
    notifier.hear({ kind: 'online', profileId: P1, at: clock.now(), session: web });
    expect(shown).toEqual([]);
  });
});

describe('behind the newest version', () => {
  const old = session({ metadata: 'old', agent_version: '3.1.2' });
  const fresh = session({ metadata: 'fresh', agent_version: '3.1.2' });

  it('tells the agents a newer version of their major left behind, not those already behind at start', () => {
    const { notifier, shown } = setup({ behindVersion: true });
    const older = session({ metadata: 'older', agent_version: '3.0.0' });
    notifier.heardSessions(P1, [old, fresh, older]);
    expect(shown).toEqual([]);
    notifier.heardSessions(P1, [old, successor(fresh, { agent_version: '3.2.0' }), older]);
    expect(shown.map((n) => n.title).sort()).toEqual([
      'old runs 3.1.2, behind 3.2.0',
      'older runs 3.0.0, behind 3.2.0',
    ]);
    notifier.heardSessions(P1, [old, successor(fresh, { agent_version: '3.2.0' }), older]);
    expect(shown).toHaveLength(2);
  });

  it('is off by default', () => {
    const { notifier, shown } = setup({});
    notifier.heardSessions(P1, [old, fresh]);
    notifier.heardSessions(P1, [old, successor(fresh, { agent_version: '3.2.0' })]);
    expect(shown).toEqual([]);
  });
});

describe('quiet hours', () => {
  it('holds the notices of the window and tells them as one summary when it ends', () => {
    const late = new Date(2026, 10, 23, 23, 0).getTime();
    const { notifier, shown, recorded, clock } = setup(
      { quietHours: { from: '22:00', to: '07:00' } },
      late,
    );
    const db = session({ metadata: 'db' });
    notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [web] });
    clock.advance(3 * 3_600_000);
    notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [db] });
    expect(shown).toEqual([]);
    expect(recorded.map((e) => e.kind === 'notice' && e.held)).toEqual([
      'quiet hours',
      'quiet hours',
    ]);
    clock.advance(5 * 3_600_000);
    expect(shown).toMatchObject([
      {
        kind: 'quietSummary',
        title: '2 notices during quiet hours',
        body: 'web went offline; db went offline.',
      },
    ]);
    expect(new Date(clock.now()).getHours()).toBe(7);
  });

  it('records its notices without the profile or a clock time, which Activity gives in its own way', () => {
    const late = new Date(2026, 10, 23, 23, 0).getTime();
    const { notifier, shown, recorded, clock } = setup(
      { quietHours: { from: '22:00', to: '07:00' } },
      late,
      { [P1]: 'Acme', p2: 'Globex' },
    );
    notifier.hear({ kind: 'offline', profileId: P1, at: clock.now(), sessions: [web] });
    clock.advance(8 * 3_600_000);
    expect(shown).toMatchObject([
      { title: 'Acme: 1 notice during quiet hours', body: 'Acme: web went offline.' },
    ]);
    expect(recorded).toMatchObject([
      { held: 'quiet hours', title: 'web went offline', detail: 'Gone. linux · us · 127.0.0.1' },
      { title: '1 notice during quiet hours', detail: 'web went offline.' },
    ]);
  });

  it('knows a window past midnight and one within a day', () => {
    const at = (h: number, m = 0) => new Date(2026, 10, 23, h, m).getTime();
    const night = { from: '22:00', to: '07:00' };
    expect(quietUntil(night, at(23))).toBe(new Date(2026, 10, 24, 7, 0).getTime());
    expect(quietUntil(night, at(6, 59))).toBe(at(7));
    expect(quietUntil(night, at(7))).toBeUndefined();
    expect(quietUntil({ from: '12:00', to: '13:30' }, at(13, 29))).toBe(at(13, 30));
    expect(quietUntil({ from: '12:00', to: '13:30' }, at(11, 59))).toBeUndefined();
    expect(quietUntil(null, at(12))).toBeUndefined();
  });
});
