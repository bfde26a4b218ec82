import { z } from 'zod';
import { ProfileId } from './profiles.ts';
import type { PlannedSnapshot, PlanView } from './snapshots.ts';

/*
 * Drift watch as the windows, the tray and `burrow drift` see it: a profile's baseline (its
 * configuration as last kept: watched, applied or accepted), the background checks of the live
 * account against it, and what changed, as the snapshot plan's readable diff from the baseline
 * to the live account. Putting the baseline back is a snapshot plan, applied by
 * `snapshots.apply` like any other (its confirmation, progress, resume and secret rules).
 */

/** Names one drift found: the same drift keeps its id, so it is told once. */
const DriftId = z.string().regex(/^[0-9a-f]{16}$/, 'must be a drift id from drift.state');

export const DriftRequest = z.strictObject({ profileId: ProfileId });
export type DriftRequest = z.input<typeof DriftRequest>;

export const AcceptRequest = z.strictObject({
  profileId: ProfileId,
  /** The drift shown: refused (DRIFT_STALE) when the account changed again since. */
  driftId: DriftId,
});
export type AcceptRequest = z.input<typeof AcceptRequest>;

const CompareRequest = z.strictObject({
  profileId: ProfileId,
  /** A snapshot `snapshots.open` opened: no path crosses the bridge. */
  snapshotId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an id from snapshots.open'),
});
export type CompareRequest = z.input<typeof CompareRequest>;

/** What changed since the baseline: steps read as baseline → live (a create is new in live). */
export type Drift = {
  readonly id: string;
  /** When this drift was first found (RFC 3339). */
  readonly foundAt: string;
  /** "1 edge updated, 2 IP policies created": the notice's and the activity entry's words. */
  readonly summary: string;
  readonly changes: PlanView;
  /** Resources whose secret changed: a hash cannot give it back, so Put back leaves them. */
  readonly secretsChanged: readonly string[];
};

export type DriftCheck = {
  readonly at: string;
  /** Requests the check made. */
  readonly requests: number;
  /** Why it could not check (the API's words), or null. */
  readonly error: string | null;
};

/** One watched (or not) profile's drift watch. */
export type DriftStatus = {
  readonly profileId: string;
  readonly profileName: string;
  readonly watching: boolean;
  /** When the baseline was kept (RFC 3339); null when not watching. */
  readonly baselineAt: string | null;
  /** How it was kept: watched, an apply through Burrow, or an accepted drift. */
  readonly baselineFrom: 'watch' | 'apply' | 'accept' | null;
  readonly checking: boolean;
  readonly lastCheck: DriftCheck | null;
  readonly nextCheckAt: string | null;
  /** Null: the live account equals the baseline (or it was not checked yet). */
  readonly drift: Drift | null;
  /** Why a profile watched before is watched no more (its baseline set aside), as told. */
  readonly stoppedWhy?: string;
};

/** A profile nobody watches: no baseline, no checks. */
export function notWatched(profileId: string, profileName: string): DriftStatus {
  return {
    profileId,
    profileName,
    watching: false,
    baselineAt: null,
    baselineFrom: null,
    checking: false,
    lastCheck: null,
    nextCheckAt: null,
    drift: null,
  };
}

/** Every profile's drift watch, in the profiles' order. */
export type DriftState = readonly DriftStatus[];

const answer = <T>() => z.custom<T>();
/** One schema for the call and its event: they carry the same whole state. */
const DriftStateAnswer = answer<DriftState>();

export const driftCalls = {
  'drift.state': { args: z.tuple([]), result: DriftStateAnswer },
  /** Keeps the live configuration as the baseline and starts watching (or resets it). */
  'drift.watch': { args: z.tuple([DriftRequest]), result: answer<DriftStatus>() },
  /** Stops watching and deletes the baseline. */
  'drift.unwatch': { args: z.tuple([DriftRequest]), result: answer<DriftStatus>() },
  /** Checks now, whatever the schedule; answers when the check is done. */
  'drift.check': { args: z.tuple([DriftRequest]), result: answer<DriftStatus>() },
  /** The live state (as last checked) becomes the baseline. */
  'drift.accept': { args: z.tuple([AcceptRequest]), result: answer<DriftStatus>() },
  /**
   * The live account against an opened snapshot as if it were the baseline (`burrow drift
   * --baseline FILE`): what changed since, or null. Nothing is kept or told.
   */
  'drift.compare': {
    args: z.tuple([CompareRequest]),
    result: answer<Omit<Drift, 'foundAt'> | null>(),
  },
  /** The plan that puts the baseline back: confirmed, then applied with `snapshots.apply`. */
  'drift.putBack': { args: z.tuple([DriftRequest]), result: answer<PlannedSnapshot>() },
} as const;

export const driftEvents = { 'drift.changed': DriftStateAnswer } as const;
