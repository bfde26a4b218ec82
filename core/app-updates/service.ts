import { duration } from '../../shared/app/clock.ts';
import { Emitter } from '../../shared/app/emitter.ts';
import type { UpdateSettings } from '../../shared/app/ipc/settings.ts';
import type { UpdateCheck, UpdatePhase, UpdateState } from '../../shared/app/ipc/updates.ts';
import { systemClock, type Clock, type Timer } from '../../shared/node/clock.ts';
import { AppError } from '../errors.ts';
import type { DownloadedUpdate } from './download.ts';
import type { Release } from './feed.ts';
import { isNewer } from './versions.ts';

/** Checked at start and then this often. */
export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;
/** A check that failed, or a download cut off, is tried again this much later. */
export const RETRY_AFTER_MS = 15 * 60 * 1000;
/** A feed file is at most 1 MiB: a read of it still going after this is stuck, a failed check. */
export const FEED_DEADLINE_MS = 60 * 1000;
/**
 * A download still going after this (an installer of ~100 MiB at under ~30 KB/s, or a server
 * trickling bytes) is cut off, and tried again as any download cut off.
 */
export const DOWNLOAD_DEADLINE_MS = 60 * 60 * 1000;

/**
 * Where releases come from: the feed and the checked download (core/app-updates/engine.ts). Each read
 * stops when `signal` fires: its deadline passed.
 */
export interface UpdateSource {
  latest(signal: AbortSignal): Promise<Release>;
  download(release: Release, signal: AbortSignal): Promise<DownloadedUpdate>;
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
 * only handed to the installer to install on quit, and installs now only on `install()`. Every
 * read has an overall deadline on the service's clock (FEED_DEADLINE_MS, DOWNLOAD_DEADLINE_MS):
 * a read past it is aborted and fails like any other, so a slow server never leaves the service
 * "checking" or "downloading", and the next check is always scheduled.
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

  onChange(listener: (state: UpdateState) => void): () => void {
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
      release = await within(
        this.clock,
        FEED_DEADLINE_MS,
        () =>
          new AppError(
            'UPDATE_FEED_UNREACHABLE',
            `The update feed did not answer within ${duration(FEED_DEADLINE_MS / 1000)}`,
          ),
        (signal) => engine.source.latest(signal),
      );
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
      const update = await within(
        this.clock,
        DOWNLOAD_DEADLINE_MS,
        () =>
          new AppError(
            'UPDATE_INTERRUPTED',
            `The download of Burrow ${release.version} was interrupted: it did not finish within ${duration(DOWNLOAD_DEADLINE_MS / 1000)}`,
          ),
        (signal) => engine.source.download(release, signal),
      );
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

/**
 * `work`, given `ms` on `clock`: past that its signal fires and this rejects with `late()` at
 * once, whether the work heeds the signal or not.
 */
function within<T>(
  clock: Clock,
  ms: number,
  late: () => Error,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimer(() => {
      const error = late();
      controller.abort(error);
      reject(error);
    }, ms);
    work(controller.signal).then(
      (value) => {
        timer.cancel();
        resolve(value);
      },
      (error: unknown) => {
        timer.cancel();
        reject(error);
      },
    );
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
