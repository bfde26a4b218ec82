import type { SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import { AppError } from '../errors.ts';
import type { SnapshotAccount } from './account.ts';
import {
  applyPlan,
  doneSteps,
  type ApplyingPlan,
  type ApplyProgress,
  type ApplyResult,
} from './apply/apply.ts';
import { exportSnapshot, type ExportProgress } from './export/export.ts';
import { journalFolder, openJournal, removeJournal, type JournalAbout } from './apply/journal.ts';
import { sweepLeftovers, takeApplyLock } from './apply/lock.ts';
import { openSnapshotOffThread } from './open/open-worker.ts';
import { planSnapshot, type Plan } from './plan/plan.ts';
import { stoppedApplies, stoppedJournal, type StoppedApply } from './apply/stopped.ts';

export type SnapshotServiceOptions = {
  /** The app's data folder: journals and apply locks go to its `snapshots/`. */
  readonly dataDir: string;
  /** This process, as a second apply to the same account is told: "burrow apply". */
  readonly holder: string;
};

export type ReadOptions = {
  readonly withSecrets: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ExportProgress) => void;
};

export type PlanOptions = {
  readonly prune: boolean;
  /** The snapshot as the person named it ("prod.json", a profile), kept with its journal. */
  readonly source: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ExportProgress) => void;
};

/**
 * A plan ready to apply: `fresh` is the snapshot against the account as it is now; `plan` is
 * what will run, which is an earlier apply's own plan when one of the same snapshot stopped.
 */
export type Planned = ApplyingPlan & {
  readonly fresh: Plan;
  readonly source: string;
  /** The journal the apply will keep (the stopped one it carries on, or a new one). */
  readonly journalId: string;
  /** The same snapshot against the account as it is by then; none for a carried-on apply. */
  readonly replan?: () => Promise<Plan>;
};

export type ApplyOptions = {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ApplyProgress) => void;
  /** Asked with the account locked and the journal read; false stops before any call. */
  readonly confirm?: (applying: ApplyingPlan) => Promise<boolean>;
};

/**
 * Export, plan and apply, the one way: the window's `snapshots.*` calls and `burrow export|plan|
 * apply` both come here, so that the journal, its owner, the lock and the secrets' rules hold
 * for both. Who asks brings the account, the progress display and the confirmation.
 */
export class SnapshotService {
  private readonly folder: string;

  constructor(private readonly options: SnapshotServiceOptions) {
    this.folder = journalFolder(options.dataDir);
  }

  /** The snapshot in a file's text, a large one opened off this thread; `fileName` names it in the refusal. */
  open(fileName: string, text: string): Promise<SnapshotDocument> {
    return openSnapshotOffThread(fileName, text);
  }

  /** The account as a snapshot; with secrets, for a full comparison (then never shown). */
  read(account: SnapshotAccount, options: ReadOptions): Promise<SnapshotDocument> {
    return exportSnapshot(account.client, {
      apiUrl: account.apiUrl,
      ...(account.profileName !== undefined && { profileName: account.profileName }),
      withSecrets: options.withSecrets,
      ...(options.signal !== undefined && { signal: options.signal }),
      ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
    });
  }

  private about(target: SnapshotAccount, source: string): JournalAbout {
    return { owner: target.owner, target: target.label, source };
  }

  /** `document` against a fresh export of `target`; an apply of it that stopped is carried on. */
  async plan(
    document: SnapshotDocument,
    target: SnapshotAccount,
    options: PlanOptions,
  ): Promise<Planned> {
    const { prune, source, signal, onProgress } = options;
    await sweepLeftovers(this.folder, target.owner, target.label, this.options.holder);
    const current = await this.read(target, {
      withSecrets: true,
      ...(signal !== undefined && { signal }),
      ...(onProgress !== undefined && { onProgress }),
    });
    const fresh = planSnapshot(document, current, { prune });
    const { journal, resumed } = await openJournal(this.folder, fresh, this.about(target, source));
    const { id: journalId, plan } = journal;
    const replan = async () =>
      planSnapshot(document, await this.read(target, { withSecrets: true }), { prune });
    return { fresh, plan, resumed, done: doneSteps(journal), source, journalId, replan };
  }

  /** Applies `planned` to `target`, the account locked against any other apply meanwhile. */
  apply(planned: Planned, target: SnapshotAccount, options: ApplyOptions): Promise<ApplyResult> {
    return applyPlan(target.client, planned.fresh, {
      journalDir: this.folder,
      about: this.about(target, planned.source),
      holder: this.options.holder,
      ...(planned.replan !== undefined && { replan: planned.replan }),
      ...options,
    });
  }

  /** Applies to `target` that stopped, for it to offer: carry on, or discard. */
  stopped(target: SnapshotAccount): Promise<StoppedApply[]> {
    return stoppedApplies(this.folder, target.owner);
  }

  /** A stopped apply of `target`'s, ready to carry on as it was planned. */
  async carryOn(target: SnapshotAccount, journalId: string): Promise<Planned> {
    const journal = await stoppedJournal(this.folder, target.owner, journalId);
    if (journal === undefined) throw this.noSuchApply(target);
    const { plan, about } = journal;
    const done = doneSteps(journal);
    return { fresh: plan, plan, resumed: true, done, source: about.source, journalId };
  }

  /** Removes a stopped apply's journal (and the secrets it holds); what it did stays done. */
  async discard(target: SnapshotAccount, journalId: string): Promise<void> {
    const journal = await stoppedJournal(this.folder, target.owner, journalId);
    if (journal === undefined) throw this.noSuchApply(target);
    // Not from under an apply carrying it on right now.
    const release = await takeApplyLock(
      this.folder,
      target.owner,
      target.label,
      this.options.holder,
    );
    try {
      await removeJournal(this.folder, journal.id);
    } finally {
      await release();
    }
  }

  private noSuchApply(target: SnapshotAccount): AppError {
    return new AppError(
      'SNAPSHOT_GONE',
      `That stopped apply to ${target.label} is gone: it was carried on or discarded`,
      'journalId',
    );
  }
}
