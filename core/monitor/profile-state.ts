import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import type { MonitorEvent, MonitorHealth, ProfileSnapshot } from '../../shared/app/monitor.ts';
import type { ApiClient } from '../api/client.ts';
import type { Timer } from '../../shared/node/clock.ts';
import { classifyFailure } from './health.ts';
import {
  MISSING_POLLS_FOR_OFFLINE,
  reconcile,
  type Expectation,
  type ReconcileMode,
  type Tracked,
} from './reconcile.ts';

/*
 * What the monitor knows of one profile and how a poll's outcome changes it: the sessions, the
 * health, the reconnection grace. The monitor (monitor.ts) schedules the polls and tells the
 * events these functions return.
 */

/** How many successful polls' page counts the expected cost of the next poll looks back on. */
const RECENT_POLLS = 5;

/** When a poll ended: monotonic (grace, expectations) and wall-clock (events), and the grace. */
export type PollTime = { readonly mono: number; readonly wall: number; readonly graceMs: number };

/** One monitored profile: what its polls found and the monitor's timers for it. */
export type Profile = {
  readonly id: string;
  readonly client: ApiClient;
  tracked: Map<string, Tracked>;
  expectations: Map<string, Expectation>;
  mode: ReconcileMode;
  /** When `reconnect` mode ends (monotonic ms); set by the first poll after the outage. */
  reconnectUntil: number | undefined;
  health: MonitorHealth;
  healthReason: string | null;
  /** The bad state last announced by an event, so that `recovered` follows it once. */
  announced: 'unreachable' | 'unauthorized' | null;
  /** Polls in a row that found the API out of reach: the first is a blip, the second news. */
  unreachablePolls: number;
  /** A 429 was answered during the poll in progress. */
  rateLimited: boolean;
  lastPollAt: number | null;
  polls: number;
  pages: number;
  /** Requests the poll in progress has made: its pages and the failed attempt. */
  requests: number;
  /** Requests the last poll made; with `recentPages`, what the next one is expected to cost. */
  cost: number;
  /** Pages of the last few successful polls: a poll cut short does not make the next look cheap. */
  recentPages: number[];
  timer: Timer | undefined;
  controller: AbortController | undefined;
  chain: Promise<void>;
  removed: boolean;
};

/** A profile just added: nothing known, its first poll quiet. */
export function newProfile(id: string, client: ApiClient): Profile {
  return {
    id,
    client,
    tracked: new Map(),
    expectations: new Map(),
    mode: 'quiet',
    reconnectUntil: undefined,
    health: 'unknown',
    healthReason: null,
    announced: null,
    unreachablePolls: 0,
    rateLimited: false,
    lastPollAt: null,
    polls: 0,
    pages: 0,
    requests: 0,
    cost: 0,
    recentPages: [],
    timer: undefined,
    controller: undefined,
    chain: Promise.resolve(),
    removed: false,
  };
}

/** A poll listed `listed` in `pages` pages: the state moves on, and these are the events. */
export function pollSucceeded(
  profile: Profile,
  listed: TunnelSession[],
  pages: number,
  when: PollTime,
): MonitorEvent[] {
  const events: MonitorEvent[] = [];
  if (profile.mode === 'reconnect') {
    profile.reconnectUntil ??= when.mono + when.graceMs;
    // Decided before this poll's differences are told: the poll that ends the grace confirms.
    if (when.mono >= profile.reconnectUntil) profile.mode = 'normal';
  }
  const result = reconcile({
    profileId: profile.id,
    tracked: profile.tracked,
    listed,
    mode: profile.mode,
    expectations: profile.expectations,
    now: when.mono,
    at: when.wall,
  });
  profile.tracked = result.tracked;
  profile.expectations = result.expectations;
  if (profile.mode === 'quiet') profile.mode = 'normal';
  profile.health = 'ok';
  profile.healthReason = null;
  profile.unreachablePolls = 0;
  profile.lastPollAt = when.wall;
  profile.polls += 1;
  profile.pages = pages;
  profile.recentPages = [...profile.recentPages.slice(-(RECENT_POLLS - 1)), pages];
  if (profile.announced !== null) {
    profile.announced = null;
    events.push({ kind: 'recovered', profileId: profile.id, at: when.wall });
  }
  return [...events, ...result.events];
}

/**
 * After a successful poll: a session it missed could be confirmed gone by the next poll (not
 * during a reconnection grace, and not one a restart of ours is holding), so that poll should
 * come soon.
 */
export function awaitsConfirmation(profile: Profile): boolean {
  if (profile.mode !== 'normal') return false;
  for (const { session, missing } of profile.tracked.values())
    if (missing > 0 && missing < MISSING_POLLS_FOR_OFFLINE && !profile.expectations.has(session.id))
      return true;
  return false;
}

/** A poll failed with `error`: the health and the grace move on, and these are the events. */
export function pollFailed(profile: Profile, error: unknown, at: number): MonitorEvent[] {
  const failure = classifyFailure(error, profile.rateLimited);
  if (failure.health === 'unreachable') {
    // Polls are not retried, so one failure is what a retry used to hide: a dropped
    // connection, a 503 during a deploy. The API is unreachable when the next poll fails too.
    profile.unreachablePolls += 1;
    // Agents may reconnect while the API is out of reach (it may be this machine that is):
    // the polls after it match them silently, and give them time before anything is offline.
    // A failed poll starts that grace; one during the grace does not start it again (an API
    // dropping every third poll would never let it end), a confirmed outage does.
    const outage = profile.mode === 'reconnect' && profile.unreachablePolls === 2;
    if (profile.mode === 'normal' || outage) {
      profile.mode = 'reconnect';
      profile.reconnectUntil = undefined;
    }
    if (profile.unreachablePolls < 2) return [];
  } else profile.unreachablePolls = 0;
  profile.health = failure.health;
  profile.healthReason = failure.reason;
  if (failure.health === 'rate-limited' || profile.announced === failure.health) return [];
  profile.announced = failure.health;
  const base = { profileId: profile.id, at, reason: failure.reason };
  return [
    failure.health === 'unauthorized'
      ? { kind: 'unauthorized', ...base, errorCode: failure.errorCode }
      : { kind: 'unreachable', ...base },
  ];
}

/** What the snapshot shows of a profile: the sessions its last poll listed, and those missed. */
export function profileSnapshot(profile: Profile, intervalMs: number): ProfileSnapshot {
  const tracked = [...profile.tracked.values()];
  return {
    profileId: profile.id,
    health: profile.health,
    healthReason: profile.healthReason,
    sessions: tracked.filter((t) => t.missing === 0).map((t) => t.session),
    missing: tracked
      .filter((t) => t.missing > 0)
      .map((t) => ({ session: t.session, polls: t.missing })),
    lastPollAt: profile.lastPollAt,
    polls: profile.polls,
    pages: profile.pages,
    intervalMs,
  };
}
