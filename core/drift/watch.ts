import {
  notWatched,
  type Drift,
  type DriftCheck,
  type DriftStatus,
} from '../../shared/app/ipc/drift.ts';
import type { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import type { Timer } from '../../shared/node/clock.ts';
import type { Plan } from '../snapshot/plan/plan.ts';
import type { Baseline } from './baseline.ts';
import type { Found } from './compare.ts';
import { HourlySpend } from './budget.ts';

/** One watched profile in memory: its baseline, what its last check found, its next check. */
export class DriftWatch {
  readonly spend = new HourlySpend();
  /** Requests the last full read of the account took. */
  lastRequests = 0;
  lastCheck: DriftCheck | null = null;
  nextCheckAt: number | null = null;
  drift: Drift | null = null;
  /** The drift's plan, for `burrow drift` to print; null without a drift. */
  plan: Plan | null = null;
  /** The live account as last read (hashed): what Accept keeps. */
  live: SnapshotDocument | null = null;
  timer: Timer | null = null;
  running: Promise<void> | null = null;
  /** Stops the check running now: Burrow's own change is kept instead of what it would find. */
  checkStop: AbortController | null = null;
  /**
   * Burrow's own change being kept as the baseline: a check that read the account meanwhile
   * tells nothing, and a check asked for waits for it.
   */
  ownChange: Promise<void> | null = null;
  /** The baseline file as last written or read here: another process's write changes it. */
  stamp: string | null = null;

  constructor(public baseline: Baseline) {}

  /** What the next check should cost: as much as the last read, and never less than the fewest. */
  cost(fewest: number): number {
    return Math.max(fewest, this.lastRequests);
  }

  /** A full read of the account at `at`, of `requests`. */
  spent(at: number, requests: number): void {
    this.spend.record(at, requests);
    this.lastRequests = requests;
  }

  /** What a check found: the same drift keeps when it was first found. */
  settle(found: Found | null, live: SnapshotDocument, now: string): Drift | null {
    this.live = live;
    this.plan = found?.plan ?? null;
    if (found === null) this.drift = null;
    else {
      const { plan: _, ...drift } = found;
      const foundAt = this.drift?.id === found.id ? this.drift.foundAt : now;
      this.drift = { ...drift, foundAt };
    }
    return this.drift;
  }

  /** When the account was last read: its last check, else its baseline's keeping (epoch ms). */
  lastAt(): number {
    return Date.parse(this.lastCheck?.at ?? this.baseline.at);
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = null;
    this.nextCheckAt = null;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A profile's drift watch as the contract shows it. */
export function statusOf(profileId: string, profileName: string, watch?: DriftWatch): DriftStatus {
  if (watch === undefined) return notWatched(profileId, profileName);
  return {
    profileId,
    profileName,
    watching: true,
    baselineAt: watch.baseline.at,
    baselineFrom: watch.baseline.from,
    checking: watch.running !== null,
    lastCheck: watch.lastCheck,
    nextCheckAt: iso(watch.nextCheckAt),
    drift: watch.drift,
  };
}
