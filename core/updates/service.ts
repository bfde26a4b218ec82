import { Emitter } from '../../shared/app/emitter.ts';
import type { UpdateSettings } from '../../shared/app/ipc/settings.ts';
import type { UpdateCheck, UpdatePhase, UpdateState } from '../../shared/app/ipc/updates.ts';
import { systemClock, type Clock, type Timer } from '../api/clock.ts';
import { AppError } from '../errors.ts';
import type { DownloadedUpdate } from './download.ts';
import type { Release } from './feed.ts';
import { isNewer } from './versions.ts';

/** Checked at start and then this often. */
export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;
/** A check that failed, or a download cut off, is tried again this much later. */
export const RETRY_AFTER_MS = 15 * 60 * 1000;

/** Where releases come from: the feed and the checked download (core/updates/engine.ts). */
export interface UpdateSource {
  latest(): Promise<Release>;
  download(release: Release): Promise<DownloadedUpdate>;
}

/**
 * The platform's install step (electron-updater, in electron/updater.ts). `ready` arms the install
 * on quit; `installNow` is the person's click. Core calls neither before the sha512 matched.
 */
export interface UpdateInstaller {
  ready(update: DownloadedUpdate): void | Promise<void>;
  installNow(): void;
}

export type UpdateServiceOptions = {
  readonly current: string;
  /** No engine: no updater here, and `unavailable` says why in words. */
  readonly engine: { readonly source: UpdateSource; readonly installer: UpdateInstaller } | null;
  readonly unavailable: string;
  readonly settings: { get(): { updates: UpdateSettings } };
  /** Wall-clock epoch ms and timers; tests pass one they move. */
  readonly clock?: Clock;
};

const wallClock: Clock = { now: () => Date.now(), setTimer: systemClock.setTimer };

/**
 * Burrow's own updates: when to check (at start, every 6 hours, sooner after a failure), what is
 * newer (never the same or an older version), what to say, and consent: a downloaded update is
 * only handed to the installer to install on quit, and installs now only on `install()`.
 */
export class UpdateService {
  private readonly clock: Clock;
  private readonly changes = new Emitter<UpdateState>('the updates');
  private readonly notices = new Emitter<string>('the update notice');
  private phase: UpdatePhase;
  private offered: Release | null = null;
  private lastCheck: UpdateCheck | null = null;
  /** The next read of the feed, and the next try of a download cut off: each its own timer. */
  private readonly timers: Record<'check' | 'resume', { at: number; timer: Timer } | undefined> = {
    check: undefined,
    resume: undefined,
  };
  private noticed: string | null = null;
  private closed = false;

  constructor(private readonly options: UpdateServiceOptions) {
    this.clock = options.clock ?? wallClock;
    this.phase = options.engine ? 'idle' : 'unavailable';
  }

  /** The first check, now; the next ones follow by themselves. */
  start(): void {
    if (this.options.engine) void this.check();
  }

  subscribe(listener: (state: UpdateState) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** "Burrow X.Y.Z is ready: restart to update", once per version. */
  onNotice(listener: (message: string) => void): () => void {
    return this.notices.subscribe(listener);
  }

  state(): UpdateState {
    const at = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
    return {
      phase: this.phase,
      current: this.options.current,
      offered: this.offered?.version ?? null,
      message: this.message(),
      lastCheck: this.lastCheck,
      nextCheckAt: at(this.nextAt()),
    };
  }

  /** Reads the feed now; downloads a newer version when downloading automatically is on. */
  async check(): Promise<UpdateState> {
    const engine = this.options.engine;
    if (!engine || this.phase === 'checking' || this.phase === 'downloading') return this.state();
    const before = this.phase;
    this.set('checking');
    let release: Release;
    try {
      release = await engine.source.latest();
    } catch (error) {
      this.failed(before, `Could not check for updates: ${messageOf(error)}`);
      return this.state();
    }
    this.schedule('check', CHECK_EVERY_MS);
    if (!isNewer(release.version, this.options.current)) {
      this.offered = before === 'ready' ? this.offered : null;
      this.checked(`Burrow is up to date (${this.options.current})`);
      this.set(before === 'ready' ? 'ready' : 'idle');
      return this.state();
    }
    if (before === 'ready' && this.offered?.version === release.version) {
      this.set('ready');
      return this.state();
    }
    this.offered = release;
    this.checked(`Burrow ${release.version} is available`);
    if (this.options.settings.get().updates.autoDownload) void this.download();
    else this.set('available');
    return this.state();
  }

  /** Downloads the offered version and checks its sha512; refused or retried later if not. */
  async download(): Promise<UpdateState> {
    const engine = this.options.engine;
    const release = this.offered;
    if (!engine || this.phase === 'downloading' || this.phase === 'ready') return this.state();
    if (!release)
      throw new AppError('UPDATE_NOTHING_OFFERED', 'No newer version to download: check first');
    this.cancel('resume');
    this.set('downloading');
    try {
      const update = await engine.source.download(release);
      await engine.installer.ready(update);
    } catch (error) {
      const interrupted = error instanceof AppError && error.code === 'UPDATE_INTERRUPTED';
      // A refused file is not fetched again until the next regular check: it may be the feed's.
      if (interrupted) this.schedule('resume', RETRY_AFTER_MS);
      this.checked(messageOf(error), true);
      this.set('available');
      return this.state();
    }
    this.set('ready');
    if (this.noticed !== release.version) {
      this.noticed = release.version;
      this.notices.emit(this.message());
    }
    return this.state();
  }

  /** The person's consent: installs the ready update now (Burrow quits and restarts). */
  install(): UpdateState {
    const engine = this.options.engine;
    if (!engine || this.phase !== 'ready')
      throw new AppError('UPDATE_NOT_READY', 'No update is ready to install');
    engine.installer.installNow();
    return this.state();
  }

  close(): void {
    this.closed = true;
    this.cancel('check');
    this.cancel('resume');
  }

  private message(): string {
    const version = this.offered?.version;
    switch (this.phase) {
      case 'unavailable':
        return this.options.unavailable;
      case 'checking':
        return 'Checking for updates…';
      case 'downloading':
        return `Downloading Burrow ${version}…`;
      case 'ready':
        return `Burrow ${version} is ready: restart to update`;
      case 'available':
        return this.lastCheck?.failed ? this.lastCheck.result : `Burrow ${version} is available`;
      case 'idle':
        return this.lastCheck?.result ?? 'Not checked yet';
    }
  }

  private failed(phase: UpdatePhase, result: string): void {
    this.schedule('check', RETRY_AFTER_MS);
    this.checked(result, true);
    this.set(phase);
  }

  private checked(result: string, failed = false): void {
    this.lastCheck = { at: new Date(this.clock.now()).toISOString(), result, failed };
  }

  /** A read of the feed, or the retry of a download cut off, `ms` from now. */
  private schedule(which: 'check' | 'resume', ms: number): void {
    if (this.closed) return;
    this.cancel(which);
    const run = () => {
      this.timers[which] = undefined;
      void (which === 'resume' ? this.download() : this.check());
    };
    this.timers[which] = { at: this.clock.now() + ms, timer: this.clock.setTimer(run, ms) };
  }

  private cancel(which: 'check' | 'resume'): void {
    this.timers[which]?.timer.cancel();
    this.timers[which] = undefined;
  }

  private nextAt(): number | undefined {
    const times = [this.timers.check?.at, this.timers.resume?.at].filter((t) => t !== undefined);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  private set(phase: UpdatePhase): void {
    this.phase = phase;
    this.changes.emit(this.state());
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
