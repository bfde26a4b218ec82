import { Emitter } from '../../shared/app/emitter.ts';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import type { MonitorEvent, MonitorSnapshot } from '../../shared/app/monitor.ts';
import type { ApiEvent } from '../api/client.ts';
import type { RateGovernor } from '../api/governor.ts';
import { systemClock } from '../../shared/node/clock.ts';
import {
  CONFIRM_DELAY_MS,
  confirmAllowance,
  confirmDelay,
  DEFAULT_POLL_INTERVAL_MS,
  MONITOR_BUDGET_SHARE,
  pollInterval,
} from './cadence.ts';
import { BudgetLedger } from './ledger.ts';
import {
  awaitsConfirmation,
  newProfile,
  pollFailed,
  pollSucceeded,
  profileSnapshot,
  type Profile,
} from './profile-state.ts';
import type { SessionMonitor, SessionMonitorOptions } from './session-monitor.ts';

export type {
  ExpectedCommand,
  MonitorClientFactory,
  SessionMonitor,
  SessionMonitorOptions,
} from './session-monitor.ts';

export function createSessionMonitor(options: SessionMonitorOptions): SessionMonitor {
  const clock = options.clock ?? systemClock;
  const now = options.now ?? Date.now;
  let baseInterval = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const share = options.budgetShare ?? MONITOR_BUDGET_SHARE;
  const pollTimeoutMs = options.pollTimeoutMs ?? 120_000;
  const expectationMs = options.expectationMs ?? 60_000;
  const reconnectGraceMs = options.reconnectGraceMs ?? 30_000;
  const confirmDelayMs = options.confirmDelayMs ?? CONFIRM_DELAY_MS;
  const durations = [baseInterval, confirmDelayMs, pollTimeoutMs, expectationMs, reconnectGraceMs];
  if (!(durations.every((ms) => ms > 0) && share > 0 && share <= 1))
    throw new RangeError(
      'The monitor needs positive durations (interval, confirm delay, poll timeout, expectation, reconnect grace) and a budget share in (0, 1]',
    );

  const profiles = new Map<string, Profile>();
  const ledgers = new Map<RateGovernor, BudgetLedger>();
  // A listener's bug is its own: the others still hear, and polling goes on.
  const events = new Emitter<MonitorEvent>('the monitor events');
  const snapshots = new Emitter<MonitorSnapshot>('the monitor snapshots');
  let paused = false;
  let closed = false;

  const emit = (event: MonitorEvent) => events.emit(event);
  const changed = () => {
    if (snapshots.size > 0) snapshots.emit(snapshot());
  };

  function profileOf(profileId: string): Profile {
    const profile = profiles.get(profileId);
    if (profile === undefined) throw new Error(`The monitor does not watch profile "${profileId}"`);
    return profile;
  }

  function expectedCost(profile: Profile): number {
    return Math.max(1, profile.cost, ...profile.recentPages);
  }

  /** Profiles sharing a governor share a budget: each polls as often as their sum allows. */
  function intervalOf(profile: Profile): number {
    const { governor } = profile.client;
    let requests = 0;
    for (const other of profiles.values())
      if (other.client.governor === governor) requests += expectedCost(other);
    return pollInterval(baseInterval, requests, governor.limit, share);
  }

  function ledgerOf(profile: Profile): BudgetLedger {
    const { governor } = profile.client;
    let ledger = ledgers.get(governor);
    if (ledger === undefined) {
      ledger = new BudgetLedger(governor.limit, share);
      ledgers.set(governor, ledger);
    }
    return ledger;
  }

  /**
   * The poll after `delayMs`, later if the budget's last window has no room for it yet. A
   * confirming poll with no room in its allowance waits out the interval instead.
   */
  function schedule(profile: Profile, delayMs = intervalOf(profile), confirming = false): void {
    profile.timer?.cancel();
    profile.timer = undefined;
    if (paused || closed || profile.removed) return;
    profile.timer = clock.setTimer(() => {
      profile.timer = undefined;
      const [ledger, cost, interval] = [
        ledgerOf(profile),
        expectedCost(profile),
        intervalOf(profile),
      ];
      const allowance = confirmAllowance(cost, interval, profile.client.governor.limit);
      if (confirming && ledger.waitFor(clock.now(), cost, allowance) > 0)
        return schedule(profile, Math.max(0, interval - delayMs));
      const wait = ledger.waitFor(clock.now(), cost);
      if (wait > 0) schedule(profile, wait);
      else void enqueue(profile);
    }, delayMs);
  }

  function enqueue(profile: Profile): Promise<void> {
    profile.chain = profile.chain.then(() => poll(profile));
    return profile.chain;
  }

  async function poll(profile: Profile): Promise<void> {
    if (paused || closed || profile.removed) return;
    profile.timer?.cancel();
    profile.timer = undefined;
    const controller = new AbortController();
    let timedOut = false;
    const timeout = clock.setTimer(() => {
      timedOut = true;
      // Still queued behind the app's own calls: the budget is spent, the API is not gone.
      if (profile.client.budget().queued.background > 0) profile.rateLimited = true;
      controller.abort();
    }, pollTimeoutMs);
    profile.controller = controller;
    profile.rateLimited = false;
    profile.requests = 0;
    const hold = ledgerOf(profile).hold(expectedCost(profile));
    let confirm = false;
    try {
      const listed: TunnelSession[] = [];
      let pages = 0;
      // No retries inside a poll: the next poll is its retry, and retries would spend budget
      // the interval did not reserve (a poll then never costs more than its pages).
      const request = { priority: 'background', signal: controller.signal, maxRetries: 0 } as const;
      for await (const page of profile.client.pages('tunnelSessions.list', request)) {
        listed.push(...page.items);
        pages += 1;
        profile.requests += 1;
        hold.spent(clock.now());
      }
      const when = { mono: clock.now(), wall: now(), graceMs: reconnectGraceMs };
      for (const event of pollSucceeded(profile, listed, pages, when)) emit(event);
      confirm = awaitsConfirmation(profile);
    } catch (error) {
      // Paused, dropped or closed mid-poll: an interrupted poll says nothing about anything.
      if (timedOut || !controller.signal.aborted)
        for (const event of pollFailed(profile, error, now())) emit(event);
      profile.requests += 1;
      hold.spent(clock.now());
    } finally {
      hold.release();
      profile.cost = profile.requests;
      timeout.cancel();
      profile.controller = undefined;
      const early = confirm
        ? confirmDelay(baseInterval, intervalOf(profile), confirmDelayMs)
        : undefined;
      schedule(profile, early, early !== undefined);
      changed();
    }
  }

  function heard(profile: Profile, event: ApiEvent): void {
    if (event.type !== 'rate-limited' || profile.removed) return;
    profile.rateLimited = true;
    if (profile.health === 'rate-limited') return;
    profile.health = 'rate-limited';
    profile.healthReason = event.message;
    changed();
  }

  function add(profileId: string): void {
    const client = options.clientFor(profileId, (event) => {
      // The profile of this client only: an event may outlive a profile dropped and re-added.
      const profile = profiles.get(profileId);
      if (profile?.client === client) heard(profile, event);
    });
    const profile = newProfile(profileId, client);
    profiles.set(profileId, profile);
    schedule(profile, 0);
  }

  async function drop(profile: Profile): Promise<void> {
    profile.removed = true;
    profile.timer?.cancel();
    profile.controller?.abort();
    profiles.delete(profile.id);
    const { governor } = profile.client;
    if (![...profiles.values()].some((other) => other.client.governor === governor))
      ledgers.delete(governor);
    await profile.chain;
    await profile.client.close();
  }

  function snapshot(): MonitorSnapshot {
    return {
      paused,
      profiles: [...profiles.values()].map((p) => profileSnapshot(p, intervalOf(p))),
    };
  }

  return {
    setProfiles(profileIds) {
      if (closed) throw new Error('The monitor is closed');
      const wanted = new Set(profileIds);
      for (const profile of [...profiles.values()]) if (!wanted.has(profile.id)) void drop(profile);
      for (const id of wanted) if (!profiles.has(id)) add(id);
      changed();
    },
    async pollNow(profileId) {
      const targets = profileId === undefined ? [...profiles.values()] : [profileOf(profileId)];
      await Promise.all(targets.map(enqueue));
    },
    setIntervalMs(ms) {
      if (!(ms > 0)) throw new RangeError('The poll interval must be positive');
      if (ms === baseInterval) return;
      baseInterval = ms;
      // A poll in flight reschedules itself when it ends; waiting timers take the new wait now.
      for (const profile of profiles.values()) if (profile.timer) schedule(profile);
      changed();
    },
    pause() {
      if (paused) return;
      paused = true;
      for (const profile of profiles.values()) {
        profile.timer?.cancel();
        profile.timer = undefined;
        profile.controller?.abort();
      }
      changed();
    },
    resume() {
      if (!paused || closed) return;
      paused = false;
      for (const profile of profiles.values()) {
        // What changed while the machine slept is not news: the next poll is a new start.
        profile.mode = 'quiet';
        schedule(profile, 0);
      }
      changed();
    },
    expect(profileId, sessionId, command) {
      const profile = profileOf(profileId);
      profile.expectations.set(sessionId, { command, until: clock.now() + expectationMs });
    },
    snapshot,
    onEvent: (listener) => events.subscribe(listener),
    onSnapshot: (listener) => snapshots.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...profiles.values()].map(drop));
      events.clear();
      snapshots.clear();
    },
  };
}
