import { randomBytes } from 'node:crypto';
import { Emitter } from '../../shared/app/emitter.ts';
import {
  AcceptRequest,
  DriftRequest,
  type Drift,
  type DriftState,
  type DriftStatus,
} from '../../shared/app/ipc/drift.ts';
import type { DriftSettings } from '../../shared/app/ipc/settings.ts';
import type { PlannedSnapshot } from '../../shared/app/ipc/snapshots.ts';
import type { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import type { Timer } from '../../shared/node/clock.ts';
import { AppError } from '../errors.ts';
import type { SecretStore } from '../profiles/keychain.ts';
import type { SnapshotAccount } from '../snapshot/account.ts';
import type { Plan } from '../snapshot/plan/plan.ts';
import type { SnapshotService } from '../snapshot/service.ts';
import { newBaseline, type Baseline } from './baseline.ts';
import { DriftChecks } from './checks.ts';
import { KeptBaselines } from './kept-baselines.ts';
import { readHashed } from './paced-read.ts';
import { compare, type Found } from './compare.ts';
import { hashSecrets, keyOnce, withoutHashes } from './secrets.ts';
import { DriftWatch, statusOf } from './watch.ts';
import { notWatched, secretLeft, staleDrift } from './words.ts';

/** What drift reaches of the profiles: their names in order, and one's account. */
export type DriftProfiles = {
  list(): readonly { readonly id: string; readonly name: string }[];
  account(profileId: string): Promise<SnapshotAccount>;
};

export type DriftServiceOptions = {
  readonly dataDir: string;
  /** The keychain, where the key secrets are hashed with is kept. */
  readonly secrets: SecretStore;
  readonly profiles: DriftProfiles;
  readonly snapshots: SnapshotService;
  readonly settings: () => DriftSettings;
  /** A drift not told before: the notice and the activity entry (the app; not `burrow drift`). */
  readonly tell?: (profileId: string, drift: Drift) => void;
  /**
   * A profile no longer watched, and why, in words naming it: its baseline was not Burrow's (set
   * aside), or could not be checked. Said once, as the file set aside is not read again.
   */
  readonly stopped?: (profileId: string, message: string) => void;
  /** The baseline (without its hashes) planned against the profile, as the window holds plans. */
  readonly planBack?: (profileId: string, document: SnapshotDocument) => Promise<PlannedSnapshot>;
  readonly now?: () => number;
  readonly setTimer?: (callback: () => void, ms: number) => Timer;
};

/**
 * Drift watch, one door for the window, the tray and `burrow drift`: each watched profile's
 * baseline, checked in the background within its share of the rate limit, a new drift told once.
 */
export class DriftService {
  private readonly changes = new Emitter<DriftState>('the drift watch');
  private readonly kept: KeptBaselines;
  private readonly watches = new Map<string, DriftWatch>();
  private readonly now: () => number;
  private readonly stop = new AbortController();
  private readonly checks: DriftChecks;

  constructor(private readonly options: DriftServiceOptions) {
    this.now = options.now ?? Date.now;
    const key = keyOnce(options.secrets);
    this.kept = new KeptBaselines({
      dataDir: options.dataDir,
      key,
      nameOf: (profileId) => this.nameOf(profileId),
      now: this.now,
      unwatch: (profileId) => {
        this.watches.get(profileId)?.cancel();
        this.watches.delete(profileId);
      },
      stopped: options.stopped,
      changed: () => this.emit(),
    });
    this.checks = new DriftChecks({
      settings: options.settings,
      account: (profileId) => options.profiles.account(profileId),
      snapshots: options.snapshots,
      key,
      reread: (watch) => this.kept.reread(watch),
      current: (watch) => this.watches.get(watch.baseline.profileId) === watch,
      write: (baseline) => this.kept.write(baseline),
      tell: options.tell,
      changed: () => this.emit(),
      now: this.now,
      setTimer: options.setTimer,
      stop: this.stop.signal,
    });
  }

  /**
   * The baselines kept of the profiles there are; their first checks one interval from now.
   * `forgetOthers`: the app knows every profile, so a baseline of none is a removed profile's.
   * No file stops the others, nor the start: one Burrow did not write is set aside and said.
   */
  async init(forgetOthers = false): Promise<void> {
    const known = new Set(this.options.profiles.list().map((p) => p.id));
    for (const id of await this.kept.profileIds()) {
      try {
        if (known.has(id)) await this.load(id);
        else if (forgetOthers) await this.kept.remove(id);
      } catch (error) {
        // The keychain refused the key, the disk a read: tried again at the next start.
        this.kept.notChecked(id, error);
      }
    }
    this.emit();
  }

  /**
   * The profile's kept baseline watched, stamped as read: its first check reads the file again
   * only if it changed since.
   */
  private async load(profileId: string): Promise<void> {
    const kept = await this.kept.changed(profileId, null);
    if (kept === undefined || 'setAside' in kept) return;
    const watch = this.watchOf(profileId, kept.baseline, kept.stamp);
    this.checks.schedule(watch, this.checks.intervalMs());
  }

  /** The profiles changed: a removed one's baseline is deleted, a renamed one shown renamed. */
  async profilesChanged(): Promise<void> {
    const known = new Set(this.options.profiles.list().map((p) => p.id));
    for (const id of [...this.watches.keys()]) if (!known.has(id)) await this.forget(id);
    this.emit();
  }

  state(): DriftState {
    return this.options.profiles.list().map((p) => {
      const status = statusOf(p.id, p.name, this.watches.get(p.id));
      const why = status.watching ? undefined : this.kept.why(p.id);
      return why === undefined ? status : { ...status, stoppedWhy: why };
    });
  }

  status(profileId: string): DriftStatus {
    const found = this.state().find((s) => s.profileId === profileId);
    if (!found)
      throw new AppError('PROFILE_NOT_FOUND', `There is no profile ${profileId}`, 'profileId');
    return found;
  }

  /** Keeps the live configuration as the baseline, and watches it from now on. */
  async watch(request: DriftRequest): Promise<DriftStatus> {
    const { profileId } = DriftRequest.parse(request);
    this.status(profileId);
    await this.keep(profileId, 'watch');
    return this.status(profileId);
  }

  async unwatch(request: DriftRequest): Promise<DriftStatus> {
    const { profileId } = DriftRequest.parse(request);
    await this.forget(profileId);
    return this.status(profileId);
  }

  /** A profile removed, or no longer watched: its baseline deleted. */
  async forget(profileId: string): Promise<void> {
    this.watches.get(profileId)?.cancel();
    this.watches.delete(profileId);
    await this.kept.remove(profileId);
    this.emit();
  }

  /** Checks now, within the budget; answers when the check is done (or postponed). */
  async check(request: DriftRequest): Promise<DriftStatus> {
    const { profileId } = DriftRequest.parse(request);
    await this.checks.check(this.watched(profileId));
    return this.status(profileId);
  }

  /** The live state as last checked becomes the baseline. */
  async accept(request: AcceptRequest): Promise<DriftStatus> {
    const { profileId, driftId } = AcceptRequest.parse(request);
    const watch = this.watched(profileId);
    if (watch.drift?.id !== driftId || watch.live === null) throw staleDrift();
    await this.setBaseline(watch, watch.live, 'accept');
    return this.status(profileId);
  }

  /**
   * The plan that puts the baseline back; a secret changed since is named and left. A file that
   * changed since it was read is read again first: one Burrow did not write is never put back.
   */
  async putBack(request: DriftRequest): Promise<PlannedSnapshot> {
    const { profileId } = DriftRequest.parse(request);
    const watch = this.watched(profileId);
    if (this.options.planBack === undefined)
      throw new AppError('DRIFT_UNAVAILABLE', 'Put back is applied from the Burrow window');
    const setAside = await this.kept.reread(watch);
    if (setAside !== undefined) throw new AppError('DRIFT_NOT_WATCHED', setAside, 'profileId');
    const planned = await this.options.planBack(profileId, withoutHashes(watch.baseline.document));
    const left = (watch.drift?.secretsChanged ?? []).map(secretLeft);
    return { ...planned, untouched: [...planned.untouched, ...left] };
  }

  /** An apply through Burrow to `profileId` succeeded: a watched one keeps what it applied. */
  async applied(profileId: string): Promise<void> {
    const watch = this.watches.get(profileId);
    if (watch === undefined) return;
    // A check running now may have read the account mid-change: the baseline is read after it.
    // Not read (the account gone, the key refused): the baseline stays, and the next check
    // shows what the apply changed as drift, which Accept then keeps.
    // It is stopped rather than waited for: paced, it may wait minutes for room in the window.
    const kept = (async () => {
      watch.checkStop?.abort();
      await watch.running?.catch(() => undefined);
      await this.keep(profileId, 'apply');
    })().catch(() => undefined);
    watch.ownChange = kept;
    await kept;
    if (watch.ownChange === kept) watch.ownChange = null;
  }

  /** The plan of the drift last found: `burrow drift` prints it. */
  lastPlan(profileId: string): Plan | undefined {
    return this.watches.get(profileId)?.plan ?? undefined;
  }

  /** The profile's live account against a snapshot file, hashed with a key of this run only. */
  async compareWith(profileId: string, document: SnapshotDocument): Promise<Found | null> {
    const key = randomBytes(32);
    const account = await this.options.profiles.account(profileId);
    const live = await readHashed(this.options.snapshots, account, key, {
      signal: this.stop.signal,
    });
    return compare(hashSecrets(document, key), live.document);
  }

  /** `drift.intervalMinutes` changed: each next check is one new interval after the last. */
  intervalChanged(): void {
    this.checks.intervalChanged(this.watches.values());
    this.emit();
  }

  onChange(listener: (state: DriftState) => void): () => void {
    return this.changes.subscribe(listener);
  }

  close(): void {
    this.stop.abort();
    for (const watch of this.watches.values()) watch.cancel();
  }

  private emit(): void {
    this.changes.emit(this.state());
  }

  private nameOf(profileId: string): string {
    return this.options.profiles.list().find((p) => p.id === profileId)?.name ?? profileId;
  }

  private watched(profileId: string): DriftWatch {
    this.status(profileId);
    const watch = this.watches.get(profileId);
    if (!watch) throw notWatched();
    return watch;
  }

  private watchOf(profileId: string, baseline: Baseline, stamp?: string | null): DriftWatch {
    const watch = this.watches.get(profileId) ?? new DriftWatch(baseline);
    watch.baseline = baseline;
    if (stamp !== undefined) watch.stamp = stamp;
    this.watches.set(profileId, watch);
    return watch;
  }

  /** Reads the live account and keeps it as the baseline. */
  private async keep(profileId: string, from: Baseline['from']): Promise<void> {
    const account = await this.options.profiles.account(profileId);
    const { document, requests } = await this.checks.read(undefined, account);
    const watch = this.watchOf(profileId, newBaseline(profileId, document, from, this.now()));
    watch.spent(this.now(), requests);
    await this.setBaseline(watch, document, from);
  }

  private async setBaseline(
    watch: DriftWatch,
    document: SnapshotDocument,
    from: Baseline['from'],
  ): Promise<void> {
    const baseline = newBaseline(watch.baseline.profileId, document, from, this.now());
    watch.stamp = await this.kept.write(baseline);
    watch.baseline = baseline;
    watch.settle(null, document, '');
    this.checks.schedule(watch, this.checks.intervalMs());
    this.emit();
  }
}
