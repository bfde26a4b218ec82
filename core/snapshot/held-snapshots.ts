import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { SNAPSHOT_KINDS, type SnapshotDocument } from '../../shared/app/snapshot-document.ts';
import type { Profile } from '../../shared/app/ipc/profiles.ts';
import { MAX_SNAPSHOT_TEXT } from '../../shared/app/ipc/snapshot-limits.ts';
import type {
  ApplyOutcome,
  ApplyRequest,
  ExportRequest,
  ExportResult,
  OpenedSnapshot,
  OpenFileResult,
  OpenRequest,
  PlannedSnapshot,
  PlanRequest,
  SnapshotProgress,
  StoppedApplyRequest,
  StoppedApplyView,
  StoppedRequest,
} from '../../shared/app/ipc/snapshots.ts';
import type { ApiClient } from '../api/client.ts';
import type { Dialogs } from '../dialogs/index.ts';
import { AppError } from '../errors.ts';
import { writeWhole } from '../files.ts';
import { profileAccount, type SnapshotAccount } from './account.ts';
import type { ExportProgress } from './export/export.ts';
import { serializeSnapshot } from './export/export.ts';
import { Held } from './held.ts';
import { applied, applyFailure, type Describe } from './apply/outcome.ts';
import type { Planned, SnapshotService } from './service.ts';
import { planView } from './plan/view.ts';

/** What the held snapshots reach of the profiles: their list and a client for one. */
export type SnapshotProfiles = {
  state(): { readonly profiles: readonly Profile[] };
  client(id: string): Promise<{ profileId: string; client: ApiClient }>;
};

export type HeldSnapshotsOptions = {
  /** Export, plan and apply themselves: the same service `burrow` drives. */
  readonly service: SnapshotService;
  readonly profiles: SnapshotProfiles;
  readonly dialogs: Dialogs;
  readonly onProgress: (progress: SnapshotProgress) => void;
  readonly describe: Describe;
  /** An apply to the profile succeeded: drift watch keeps what was applied as its baseline. */
  readonly onApplied?: (profileId: string) => Promise<void>;
};

type HeldPlan = { readonly planned: Planned; readonly targetProfileId: string };

const countOf = (document: SnapshotDocument) =>
  SNAPSHOT_KINDS.reduce((n, kind) => n + document.resources[kind].length, 0);

/** A file name from a profile's name: `prod.json`, `local-sandbox.json`. */
const fileNameOf = (profile: Profile) =>
  `${
    profile.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'snapshot'
  }.json`;

/**
 * Snapshots as the app's callers reach them, by id: the window and `burrow` inside the app (export,
 * open, plan, apply), and drift (a comparison with an opened snapshot, Put back planned and
 * applied as any plan). Profiles and dialogs are turned into the service's accounts, and the
 * documents and plans are held here under ids so that secrets stay in core.
 */
export class HeldSnapshots {
  private readonly snapshots = new Held<{ document: SnapshotDocument; fileName: string }>(
    'snapshot',
  );
  private readonly plans = new Held<HeldPlan>('plan');
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly options: HeldSnapshotsOptions) {}

  /** The service underneath, for what reads the same accounts (drift): one journal, one lock. */
  get service(): SnapshotService {
    return this.options.service;
  }

  private profile(id: string): Profile {
    const profile = this.options.profiles.state().profiles.find((p) => p.id === id);
    if (!profile) throw new AppError('PROFILE_NOT_FOUND', `There is no profile ${id}`, 'profileId');
    return profile;
  }

  private async account(profile: Profile): Promise<SnapshotAccount> {
    const { client } = await this.options.profiles.client(profile.id);
    return profileAccount(profile, client);
  }

  /** Runs `work` cancellable by `requestId` (when given). */
  private async cancellable<T>(
    requestId: string | undefined,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    if (requestId !== undefined) {
      if (this.running.has(requestId))
        throw new AppError('SNAPSHOT_BUSY', 'That request is already running', 'requestId');
      this.running.set(requestId, controller);
    }
    try {
      return await work(controller.signal);
    } finally {
      if (requestId !== undefined) this.running.delete(requestId);
    }
  }

  private reading(requestId: string | undefined, profile: Profile) {
    return (p: ExportProgress) => {
      if (requestId !== undefined)
        this.options.onProgress({
          requestId,
          phase: 'reading',
          done: p.kindsDone,
          total: p.totalKinds,
          current: `${profile.name}: ${p.kind}`,
          remainingMs: null,
        });
    };
  }

  async export(request: ExportRequest): Promise<ExportResult> {
    const profile = this.profile(request.profileId);
    const { withSecrets, requestId } = request;
    let path: string | undefined;
    if (request.to === 'file') {
      const choice = await this.options.dialogs.saveFile({
        title: `Export ${profile.name} as a snapshot`,
        defaultPath: fileNameOf(profile),
        extensions: ['json'],
      });
      if (choice.status === 'cancelled') return { status: 'cancelled' };
      // Browser mode has no dialog: the document goes to the window, which offers a download.
      if (choice.status === 'chosen') path = choice.path;
    }
    const account = await this.account(profile);
    const document = await this.cancellable(requestId, (signal) =>
      this.options.service.read(account, {
        withSecrets,
        signal,
        onProgress: this.reading(requestId, profile),
      }),
    );
    const text = serializeSnapshot(document);
    const resources = countOf(document);
    if (path === undefined)
      return {
        status: 'document',
        text,
        fileName: fileNameOf(profile),
        resources,
        containsSecrets: withSecrets,
      };
    await writeWhole(path, text, withSecrets ? 0o600 : 0o644);
    return { status: 'saved', path, resources, containsSecrets: withSecrets };
  }

  /** The file the shell's open dialog chose, read here and opened as `open` does. */
  async openFile(): Promise<OpenFileResult> {
    const choice = await this.options.dialogs.openFile({
      title: 'Open a snapshot',
      extensions: ['json'],
    });
    if (choice.status !== 'chosen') return choice;
    const fileName = basename(choice.path);
    if ((await stat(choice.path)).size > MAX_SNAPSHOT_TEXT)
      throw new AppError(
        'SNAPSHOT_TOO_LARGE',
        `${fileName} is larger than a snapshot can be (${MAX_SNAPSHOT_TEXT.toLocaleString('en')} bytes)`,
        'file',
      );
    const text = await readFile(choice.path, 'utf8');
    return { status: 'opened', snapshot: await this.open({ fileName, text }) };
  }

  async open(request: OpenRequest): Promise<OpenedSnapshot> {
    const { fileName, text } = request;
    const document = await this.options.service.open(fileName, text);
    const snapshotId = this.snapshots.add({ document, fileName });
    return {
      snapshotId,
      fileName,
      exportedAt: document.exportedAt,
      source: document.source,
      containsSecrets: document.containsSecrets,
      resources: countOf(document),
    };
  }

  private held(planned: Planned, target: Profile): PlannedSnapshot {
    const planId = this.plans.add({ planned, targetProfileId: target.id });
    return {
      ...planView(planned.plan),
      planId,
      sourceLabel: planned.source,
      targetLabel: target.name,
      resumes: planned.resumed,
      ...(planned.resumed && { resume: { journalId: planned.journalId, done: planned.done } }),
    };
  }

  /** A snapshot `open` opened, as read (drift compares an account with it). */
  opened(snapshotId: string): SnapshotDocument {
    return this.snapshots.get(snapshotId).document;
  }

  async plan(request: PlanRequest): Promise<PlannedSnapshot> {
    const target = this.profile(request.targetProfileId);
    const { source, requestId, prune } = request;
    const opened = source.type === 'snapshot' ? this.snapshots.get(source.snapshotId) : undefined;
    const from = source.type === 'profile' ? this.profile(source.profileId) : undefined;
    const service = this.options.service;
    const onTarget = await this.account(target);
    return this.cancellable(requestId, async (signal) => {
      // Secrets on both sides: compared in full, copied from one profile to another, never shown.
      const document =
        opened?.document ??
        (await service.read(await this.account(from as Profile), {
          withSecrets: true,
          signal,
          onProgress: this.reading(requestId, from as Profile),
        }));
      const planned = await service.plan(document, onTarget, {
        prune,
        source: opened?.fileName ?? from?.name ?? '',
        signal,
        onProgress: this.reading(requestId, target),
      });
      return this.held(planned, target);
    });
  }

  async apply(request: ApplyRequest): Promise<ApplyOutcome> {
    const held = this.plans.get(request.planId);
    const target = await this.account(this.profile(held.targetProfileId));
    const { requestId } = request;
    return this.cancellable(requestId, async (signal) => {
      try {
        const result = await this.options.service.apply(held.planned, target, {
          signal,
          onProgress: (p) =>
            this.options.onProgress({
              requestId,
              phase: 'applying',
              done: p.done,
              total: p.total,
              current: p.step === null ? null : `${p.step.action} ${p.step.name}`,
              remainingMs: p.remainingMs,
            }),
        });
        this.plans.delete(request.planId);
        await this.options.onApplied?.(held.targetProfileId);
        return applied(result);
      } catch (error) {
        // Another apply holds the account: this one never started, so it is refused, not failed.
        if (error instanceof AppError && error.code === 'SNAPSHOT_BUSY') throw error;
        return applyFailure(error, signal.aborted, this.options.describe);
      }
    });
  }

  /** The applies to a profile that stopped: each can be carried on or discarded. */
  async stopped(request: StoppedRequest): Promise<StoppedApplyView[]> {
    const target = await this.account(this.profile(request.profileId));
    return this.options.service.stopped(target);
  }

  /** A stopped apply, planned as it was, to be applied as any plan is. */
  async carryOn(request: StoppedApplyRequest): Promise<PlannedSnapshot> {
    const profile = this.profile(request.profileId);
    const planned = await this.options.service.carryOn(
      await this.account(profile),
      request.journalId,
    );
    return this.held(planned, profile);
  }

  async discard(request: StoppedApplyRequest): Promise<void> {
    const target = await this.account(this.profile(request.profileId));
    await this.options.service.discard(target, request.journalId);
  }

  cancel(requestId: string): boolean {
    const running = this.running.get(requestId);
    running?.abort();
    return running !== undefined;
  }

  close(): void {
    for (const controller of this.running.values()) controller.abort();
  }
}
