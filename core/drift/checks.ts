import type { DriftSettings } from '../../shared/app/ipc/settings.ts';
import { SNAPSHOT_KINDS, type SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import { systemClock, type Timer } from '../../shared/node/clock.ts';
import type { Drift } from '../../shared/app/ipc/drift.ts';
import type { SnapshotAccount } from '../snapshot/account.ts';
import type { SnapshotService } from '../snapshot/service.ts';
import type { Baseline } from './baseline.ts';
import { hourlyAllowance, postponedReason } from './budget.ts';
import { readHashed } from './paced-read.ts';
import { compare, type Found } from './compare.ts';
import type { DriftWatch } from './watch.ts';

/** The fewest requests a check makes: one list page per kind read (routes come with edges). */
export const MIN_CHECK_REQUESTS = SNAPSHOT_KINDS.filter((k) => k !== 'httpsEdgeRoute').length;

/** What the checks reach of the drift watch around them. */
export type CheckParts = {
  readonly settings: () => DriftSettings;
  readonly account: (profileId: string) => Promise<SnapshotAccount>;
  readonly snapshots: SnapshotService;
  /** The drift key (secrets.ts), which secrets are hashed with. */
  readonly key: () => Promise<Buffer>;
  /**
   * The baseline file read again when another process kept one since; answers, when it was not
   * Burrow's, what was said as it was set aside.
   */
  readonly reread: (watch: DriftWatch) => Promise<string | undefined>;
  /** Whether the watch is still its profile's: not forgotten, nor set aside, meanwhile. */
  readonly current: (watch: DriftWatch) => boolean;
  /** Writes the baseline; answers its file's stamp. */
  readonly write: (baseline: Baseline) => Promise<string | null>;
  /** A drift not told before (the app; not `burrow drift`). */
  readonly tell?: ((profileId: string, drift: Drift) => void) | undefined;
  /** The watch's state changed: a check started, or ended. */
  readonly changed: () => void;
  readonly now: () => number;
  readonly setTimer?: ((callback: () => void, ms: number) => Timer) | undefined;
  /** Stops every check: the app quits. */
  readonly stop: AbortSignal;
};

/**
 * When and how each watched profile is checked: on its timer, one interval after the last read
 * of its account, within its share of the rate limit (or postponed to when that has room), and
 * a drift found told once.
 */
export class DriftChecks {
  constructor(private readonly parts: CheckParts) {}

  intervalMs(): number {
    return this.parts.settings().intervalMinutes * 60_000;
  }

  /** The account as a baseline holds it; the requests it took are counted against the budget. */
  async read(watch: DriftWatch | undefined, account: SnapshotAccount, signal = this.parts.stop) {
    const key = await this.parts.key();
    // A baseline is kept while a person waits (Watch, an apply, Put back); a check waits for room.
    const personWaits = watch === undefined;
    const live = await readHashed(this.parts.snapshots, account, key, { signal, personWaits });
    watch?.spent(this.parts.now(), live.requests);
    return live;
  }

  /** The watch's next check `inMs` from now, in place of the one it had. */
  schedule(watch: DriftWatch, inMs: number): void {
    const setTimer = this.parts.setTimer ?? ((cb, ms) => systemClock.setTimer(cb, ms));
    watch.cancel();
    watch.nextCheckAt = this.parts.now() + inMs;
    watch.timer = setTimer(() => {
      if (this.parts.current(watch)) void this.check(watch);
    }, inMs);
  }

  /** `drift.intervalMinutes` changed: each next check is one new interval after the last. */
  intervalChanged(watches: Iterable<DriftWatch>): void {
    for (const watch of watches)
      if (watch.running === null && watch.nextCheckAt !== null)
        this.schedule(watch, Math.max(0, watch.lastAt() + this.intervalMs() - this.parts.now()));
  }

  /** Checks the watch now, or joins the check running; after Burrow's own change being kept. */
  check(watch: DriftWatch): Promise<void> {
    const kept = watch.ownChange;
    const check = async () => {
      await kept;
      const stop = new AbortController();
      watch.checkStop = stop;
      try {
        await this.run(watch, AbortSignal.any([this.parts.stop, stop.signal]));
      } finally {
        if (watch.checkStop === stop) watch.checkStop = null;
      }
    };
    watch.running ??= check().finally(() => {
      watch.running = null;
      this.parts.changed();
    });
    return watch.running;
  }

  /** One check, unless the budget says wait; whatever fails is said in `lastCheck`. */
  private async run(watch: DriftWatch, signal: AbortSignal): Promise<void> {
    const { budgetPercent } = this.parts.settings();
    const at = this.parts.now();
    const checked = (requests: number, error: string | null) =>
      (watch.lastCheck = { at: new Date(at).toISOString(), requests, error });
    try {
      // A baseline kept meanwhile by another process (`burrow drift --set`) is the one checked.
      if ((await this.parts.reread(watch)) !== undefined) return;
      const account = await this.parts.account(watch.baseline.profileId);
      const allowance = hourlyAllowance(account.client.budget(), budgetPercent);
      const cost = watch.cost(MIN_CHECK_REQUESTS);
      const fits = watch.spend.fits(cost, allowance, at);
      if (!fits.ok) {
        checked(0, postponedReason(cost, allowance, budgetPercent));
        this.schedule(watch, fits.retryAt - at);
        return;
      }
      this.parts.changed();
      const live = await this.read(watch, account, signal);
      checked(live.requests, null);
      await this.found(watch, await compare(watch.baseline.document, live.document), live.document);
    } catch (error) {
      // Stopped (the app quits, or Burrow's own change is kept instead): the next check is
      // scheduled by whoever stopped it, and the last one still says what it found.
      if (signal.aborted) return;
      checked(0, error instanceof Error ? error.message : String(error));
    }
    if (!this.parts.stop.aborted) this.schedule(watch, this.intervalMs());
  }

  /** A drift found (or none): told once, and the baseline's memory of it kept. */
  private async found(watch: DriftWatch, found: Found | null, live: SnapshotDocument) {
    const { baseline } = watch;
    const { tell } = this.parts;
    // Its file set aside meanwhile (by Put back): nothing is told, nor written back. Burrow's own
    // change made while this check read: the baseline read after it decides.
    if (!this.parts.current(watch) || watch.ownChange !== null) return;
    const drift = watch.settle(found, live, new Date(this.parts.now()).toISOString());
    const told = drift?.id ?? null;
    if (told === baseline.toldDriftId) return;
    if (drift) tell?.(baseline.profileId, drift);
    // `burrow drift` tells nobody: what the app has told stays as it was.
    if (tell === undefined) return;
    watch.baseline = { ...baseline, toldDriftId: told };
    watch.stamp = await this.parts.write(watch.baseline);
  }
}
