import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  parseSnapshot,
  SNAPSHOT_KINDS,
  type SnapshotDocument,
} from '../../shared/snapshot/document.ts';
import type { Profile } from '../../shared/ipc/profiles.ts';
import { MAX_SNAPSHOT_TEXT } from '../../shared/ipc/snapshots.ts';
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
} from '../../shared/ipc/snapshots.ts';
import type { ApiClient } from '../api/client.ts';
import type { Dialogs } from '../dialogs/index.ts';
import { AppError } from '../errors.ts';
import { writeWhole } from '../files.ts';
import { snapshotAddress } from './address.ts';
import { applyPlan, ApplyBlockedError, ApplyStepError } from './apply.ts';
import { exportSnapshot, serializeSnapshot } from './export.ts';
import { journalFolder, openJournal } from './journal.ts';
import { planSnapshot, type Plan } from './plan.ts';
import { planView } from './view.ts';

/** What the service reaches of the profiles: their list and a client for one. */
export type SnapshotProfiles = {
  state(): { readonly profiles: readonly Profile[] };
  client(id: string): Promise<{ profileId: string; client: ApiClient }>;
};

export type SnapshotServiceOptions = {
  readonly profiles: SnapshotProfiles;
  readonly dialogs: Dialogs;
  /** The app's data folder: apply journals go to its `snapshots/`, as the command's do. */
  readonly dataDir: string;
  readonly onProgress: (progress: SnapshotProgress) => void;
  /** The failure of an apply's step as the window shows a call's (the dispatcher's wording). */
  readonly describe: (error: unknown) => ApplyFailure['error'];
};

type ApplyFailure = Extract<ApplyOutcome, { ok: false }>;

/** The last few of something core holds for the window; an id older than those is gone. */
class Held<T> {
  private readonly items = new Map<string, T>();
  constructor(
    private readonly what: string,
    private readonly keep = 8,
  ) {}
  add(value: T): string {
    const id = randomUUID().replaceAll('-', '');
    this.items.set(id, value);
    for (const old of this.items.keys()) if (this.items.size > this.keep) this.items.delete(old);
    return id;
  }
  get(id: string): T {
    const value = this.items.get(id);
    if (value === undefined)
      throw new AppError('SNAPSHOT_GONE', `This ${this.what} is no longer open: open it again`);
    return value;
  }
  delete(id: string): void {
    this.items.delete(id);
  }
}

type HeldPlan = { readonly plan: Plan; readonly targetProfileId: string };

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
 * Snapshots for the window: the same export, plan and apply as `burrow export|plan|apply`, with
 * the documents and plans held here under ids so that secrets stay in core.
 */
export class SnapshotService {
  private readonly snapshots = new Held<{ document: SnapshotDocument; fileName: string }>(
    'snapshot',
  );
  private readonly plans = new Held<HeldPlan>('plan');
  private readonly running = new Map<string, AbortController>();
  /** Profiles an apply is changing: a second one at once would race the first's journal. */
  private readonly applying = new Set<string>();

  constructor(private readonly options: SnapshotServiceOptions) {}

  private profile(id: string): Profile {
    const profile = this.options.profiles.state().profiles.find((p) => p.id === id);
    if (!profile) throw new AppError('PROFILE_NOT_FOUND', `There is no profile ${id}`, 'profileId');
    return profile;
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

  private async read(
    profile: Profile,
    withSecrets: boolean,
    requestId: string | undefined,
    signal: AbortSignal,
  ): Promise<SnapshotDocument> {
    const { client } = await this.options.profiles.client(profile.id);
    return exportSnapshot(client, {
      apiUrl: snapshotAddress(profile),
      profileName: profile.name,
      withSecrets,
      signal,
      onProgress: (p) => {
        if (requestId !== undefined)
          this.options.onProgress({
            requestId,
            phase: 'reading',
            done: p.kindsDone,
            total: p.totalKinds,
            current: `${profile.name}: ${p.kind}`,
            remainingMs: null,
          });
      },
    });
  }

  async export(request: ExportRequest): Promise<ExportResult> {
    const profile = this.profile(request.profileId);
    const withSecrets = request.withSecrets;
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
    const document = await this.cancellable(request.requestId, (signal) =>
      this.read(profile, withSecrets, request.requestId, signal),
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
    return { status: 'opened', snapshot: this.open({ fileName, text }) };
  }

  open(request: OpenRequest): OpenedSnapshot {
    const { fileName, text } = request;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new AppError(
        'SNAPSHOT_NOT_JSON',
        `${fileName} is not JSON: ${(error as Error).message}`,
        'text',
      );
    }
    let document: SnapshotDocument;
    try {
      document = parseSnapshot(json);
    } catch (error) {
      throw new AppError('SNAPSHOT_INVALID', `${fileName}: ${(error as Error).message}`, 'text');
    }
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

  async plan(request: PlanRequest): Promise<PlannedSnapshot> {
    const target = this.profile(request.targetProfileId);
    const { source, requestId } = request;
    const opened = source.type === 'snapshot' ? this.snapshots.get(source.snapshotId) : undefined;
    const from = source.type === 'profile' ? this.profile(source.profileId) : undefined;
    return this.cancellable(requestId, async (signal) => {
      // Secrets on both sides: compared in full, copied from one profile to another, never shown.
      const document =
        opened?.document ?? (await this.read(from as Profile, true, requestId, signal));
      const current = await this.read(target, true, requestId, signal);
      const fresh = planSnapshot(document, current, { prune: request.prune });
      // An apply of the same source to the same target that stopped is carried on from its plan.
      const { journal, resumed } = await openJournal(journalFolder(this.options.dataDir), fresh);
      const planId = this.plans.add({ plan: fresh, targetProfileId: target.id });
      return {
        ...planView(journal.plan),
        planId,
        sourceLabel: opened?.fileName ?? from?.name ?? '',
        targetLabel: target.name,
        resumes: resumed,
      };
    });
  }

  async apply(request: ApplyRequest): Promise<ApplyOutcome> {
    const held = this.plans.get(request.planId);
    const target = held.targetProfileId;
    if (this.applying.has(target))
      throw new AppError(
        'SNAPSHOT_BUSY',
        `An apply to ${this.profile(target).name} is running: wait for it, or cancel it`,
        'planId',
      );
    this.applying.add(target);
    try {
      return await this.run(request, held);
    } finally {
      this.applying.delete(target);
    }
  }

  private async run(request: ApplyRequest, held: HeldPlan): Promise<ApplyOutcome> {
    const { client } = await this.options.profiles.client(held.targetProfileId);
    const { requestId } = request;
    return this.cancellable(requestId, async (signal) => {
      try {
        const result = await applyPlan(client, held.plan, {
          journalDir: journalFolder(this.options.dataDir),
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
        const { created, updated, deleted, unchanged, resumed } = result;
        return { ok: true, created, updated, deleted, unchanged, resumed };
      } catch (error) {
        return this.failure(error, signal);
      }
    });
  }

  private failure(error: unknown, signal: AbortSignal): ApplyFailure {
    const cancelled = signal.aborted;
    const pick = (s: { action: ApplyFailure['done'][number]['action']; name: string }) => ({
      action: s.action,
      name: s.name,
    });
    if (error instanceof ApplyBlockedError)
      return {
        ok: false,
        error: { code: 'SNAPSHOT_BLOCKED', message: error.message },
        step: null,
        done: [],
        cancelled,
      };
    if (error instanceof ApplyStepError)
      return {
        ok: false,
        error: this.options.describe(error.cause),
        step: pick(error.step),
        done: error.done.map(pick),
        cancelled,
      };
    return { ok: false, error: this.options.describe(error), step: null, done: [], cancelled };
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
