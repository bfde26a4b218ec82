import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { agentKey, isNewerVersion, type MonitorEvent } from '../../shared/app/monitor.ts';

/** A session the monitor knows, and how many successful polls in a row have not listed it. */
export type Tracked = { readonly session: TunnelSession; readonly missing: number };

/** A command of ours that explains a session's disappearance, until `until` (monotonic ms). */
export type Expectation = { readonly command: 'stop' | 'restart'; readonly until: number };

/**
 * How a poll's differences are told:
 * - `quiet`: the first poll after start-up or a resume takes the list as it is, with no events;
 * - `reconnect`: after the API was unreachable agents may reconnect with new session ids, which
 *   is the outage's doing, not theirs: a session matched to its agent says nothing, and misses
 *   are counted but not yet confirmed as offline while agents are still finding their way back;
 * - `normal`: every difference is an event.
 */
export type ReconcileMode = 'quiet' | 'reconnect' | 'normal';

export type ReconcileInput = {
  readonly profileId: string;
  readonly tracked: ReadonlyMap<string, Tracked>;
  readonly listed: readonly TunnelSession[];
  readonly mode: ReconcileMode;
  readonly expectations: ReadonlyMap<string, Expectation>;
  /** Monotonic, for the expectations. */
  readonly now: number;
  /** Wall clock, for the events. */
  readonly at: number;
};

export type ReconcileResult = {
  readonly tracked: Map<string, Tracked>;
  readonly expectations: Map<string, Expectation>;
  readonly events: MonitorEvent[];
};

/** Offline needs this many successful polls in a row without the session. */
export const MISSING_POLLS_FOR_OFFLINE = 2;

/**
 * However the API flaps (each outage gives agents time to reconnect), a session missing from
 * this many successful polls is offline: no reconnecting agent takes that long, and a gone one
 * is said in bounded time and leaves the monitor's memory.
 */
export const MISSING_POLLS_FOR_OFFLINE_WHILE_RECONNECTING = 8;

/**
 * One successful poll's list against what was known: the events it makes and the new state.
 * A session gone from the list is offline only when two polls in a row miss it (and no restart
 * of ours is pending for it); a new session with a missing session's agent key is that agent
 * restarted (or updated, when its version is newer), never an offline and an online.
 */
export function reconcile(input: ReconcileInput): ReconcileResult {
  const { profileId, at, now } = input;
  const expectations = new Map([...input.expectations].filter(([, e]) => e.until > now));
  const listedIds = new Set(input.listed.map((s) => s.id));
  const tracked = new Map<string, Tracked>();
  const events: MonitorEvent[] = [];

  if (input.mode === 'quiet') {
    for (const session of input.listed) tracked.set(session.id, { session, missing: 0 });
    return { tracked, expectations: keepListed(expectations, listedIds), events };
  }

  const missingByKey = new Map<string, Tracked[]>();
  for (const t of input.tracked.values()) {
    if (listedIds.has(t.session.id)) continue;
    const key = agentKey(t.session);
    missingByKey.set(key, [...(missingByKey.get(key) ?? []), t]);
  }

  const successors = new Set<string>();
  for (const session of input.listed) {
    tracked.set(session.id, { session, missing: 0 });
    if (input.tracked.has(session.id)) continue;
    const previous = missingByKey.get(agentKey(session))?.shift()?.session;
    if (previous === undefined) {
      events.push({ kind: 'online', profileId, at, session });
      continue;
    }
    successors.add(previous.id);
    expectations.delete(previous.id);
    if (input.mode === 'reconnect') continue;
    const kind = isNewerVersion(session.agent_version, previous.agent_version)
      ? 'updated'
      : 'restarted';
    events.push({ kind, profileId, at, session, previous });
  }

  const offline: TunnelSession[] = [];
  for (const t of input.tracked.values()) {
    const { session } = t;
    if (listedIds.has(session.id) || successors.has(session.id)) continue;
    const expected = expectations.get(session.id);
    if (expected?.command === 'stop') {
      expectations.delete(session.id);
      events.push({ kind: 'stopped', profileId, at, session });
      continue;
    }
    const missing = t.missing + 1;
    // A restart of ours may take longer than two polls to reconnect: it is not an offline.
    const confirmed =
      input.mode === 'normal'
        ? missing >= MISSING_POLLS_FOR_OFFLINE
        : missing >= MISSING_POLLS_FOR_OFFLINE_WHILE_RECONNECTING;
    if (confirmed && expected === undefined) offline.push(session);
    else tracked.set(session.id, { session, missing });
  }
  if (offline.length > 0) events.push({ kind: 'offline', profileId, at, sessions: offline });
  return { tracked, expectations, events };
}

function keepListed(
  expectations: Map<string, Expectation>,
  listed: ReadonlySet<string>,
): Map<string, Expectation> {
  return new Map([...expectations].filter(([id]) => listed.has(id)));
}
