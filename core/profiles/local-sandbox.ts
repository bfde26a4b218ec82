import type { LocalSandboxStatus } from '../../shared/app/ipc/profiles.ts';
import type { RateLimit } from '../api/governor.ts';
import {
  liveRecord,
  removeRecord,
  writeRecord,
  type SandboxRecord,
} from './local-sandbox-record.ts';

/** A running embedded sandbox, as core needs it. */
export interface RunningSandbox {
  readonly url: string;
  /**
   * The limit it enforces when started with another than the service's (`npm run web --
   * --sandbox-rate-limit`): the Local profile's governor keeps to it instead, or it would
   * still make every caller wait at 120 a minute for a sandbox that would have answered.
   */
  readonly rateLimit?: RateLimit;
  close(): Promise<void>;
}

/**
 * Starts the embedded sandbox. The shell (electron/ or web/) provides it, since core never
 * imports sandbox/; core decides when it runs.
 */
export type StartLocalSandbox = (options: {
  /** A folder of the app's data folder for the sandbox's data file; it survives restarts. */
  readonly dataDir: string;
  readonly apiKey: string;
}) => Promise<RunningSandbox>;

/** How the data file's lock says another sandbox has it (sandbox/store/lock.ts). */
const HELD_ELSEWHERE = /in use by another sandbox/;

/**
 * How long another process's sandbox may take to listen and say so once it has the data file
 * (two starting at the same moment); one that never says (Burrow before it recorded) is refused.
 */
const RECORD_WAIT_MS = 2_000;

export type LocalSandboxSharing = {
  /**
   * How often a sandbox that another process runs is checked; once it has gone, `onGone`. 0:
   * not checked (a command's lifetime is short, and its calls fail plainly if it goes).
   */
  readonly watchMs: number;
  /** The other process's sandbox has gone: this one's clients must be made again. */
  readonly onGone: () => void;
};

/**
 * The Local sandbox's lifetime: made lazily, when its profile's first client is asked for (the
 * app asks at start-up without waiting, so the first window never waits for it), and awaited
 * only by the calls that need its address.
 *
 * One sandbox per data file, shared: the process that starts it (the app, or a `burrow`
 * command) records where it listens (local-sandbox-record.ts), and another that needs it uses
 * that one rather than opening the same data file, until it goes.
 */
export class LocalSandbox {
  private running: Promise<RunningSandbox> | undefined;
  private current: RunningSandbox | undefined;
  /** The key the running (or starting) sandbox accepts. */
  private apiKey: string | undefined;
  status: LocalSandboxStatus = { state: 'absent' };

  constructor(
    private readonly start: StartLocalSandbox,
    private readonly dataDir: string,
    private readonly onStatus: (status: LocalSandboxStatus) => void,
    private readonly sharing: LocalSandboxSharing = { watchMs: 0, onGone: () => undefined },
  ) {}

  /**
   * Starts it unless it is running or starting with this key; resolves with its address. A
   * sandbox started with another key (a profile removed and made again) is stopped first: it
   * would refuse the new key.
   */
  ensure(apiKey: string): Promise<RunningSandbox> {
    if (this.running && this.apiKey === apiKey) return this.running;
    const previous = this.stop();
    this.apiKey = apiKey;
    this.set({ state: 'starting' });
    const running = previous
      .then(() => this.startOrJoin(apiKey))
      .then(
        (sandbox) => {
          // Not when a stop (which closes it) or another start came meanwhile.
          if (this.running !== running) return sandbox;
          this.current = sandbox;
          this.set({ state: 'running' });
          return sandbox;
        },
        (error: unknown) => {
          if (this.running !== running) throw error;
          this.running = undefined;
          const reason = error instanceof Error ? error.message : String(error);
          this.set({ state: 'failed', message: `The Local sandbox did not start: ${reason}` });
          throw error;
        },
      );
    this.running = running;
    // Whoever needs the address sees the failure; the status carries it for everyone else.
    running.catch(() => undefined);
    return running;
  }

  get url(): string {
    return this.current?.url ?? '';
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.current = undefined;
    this.apiKey = undefined;
    if (!running) return;
    const sandbox = await running.catch(() => undefined);
    await sandbox?.close();
    // Unless a start with another key follows this stop and says so itself.
    if (this.running === undefined) this.set({ state: 'stopped' });
  }

  /** The sandbox another process runs on this data folder, or one of this process's, recorded. */
  private async startOrJoin(apiKey: string): Promise<RunningSandbox> {
    const theirs = await liveRecord(this.dataDir);
    if (theirs) return this.join(theirs);
    let sandbox: RunningSandbox;
    try {
      sandbox = await this.start({ dataDir: this.dataDir, apiKey });
    } catch (error) {
      // Another process took the data file between the look and the start: it records where it
      // listens once it does.
      const late = HELD_ELSEWHERE.test(String(error)) ? await this.recordWithin() : undefined;
      if (late) return this.join(late);
      throw error;
    }
    const mine: SandboxRecord = {
      url: sandbox.url,
      pid: process.pid,
      ...(sandbox.rateLimit && { rateLimit: sandbox.rateLimit }),
    };
    try {
      await writeRecord(this.dataDir, mine);
    } catch (error) {
      await sandbox.close();
      throw error;
    }
    return {
      url: sandbox.url,
      ...(sandbox.rateLimit && { rateLimit: sandbox.rateLimit }),
      close: async () => {
        await removeRecord(this.dataDir, mine);
        await sandbox.close();
      },
    };
  }

  private async recordWithin(): Promise<SandboxRecord | undefined> {
    const until = Date.now() + RECORD_WAIT_MS;
    for (;;) {
      const record = await liveRecord(this.dataDir);
      if (record || Date.now() > until) return record;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Uses another process's sandbox; closing it only stops watching it. */
  private join(record: SandboxRecord): RunningSandbox {
    const { watchMs, onGone } = this.sharing;
    const watch =
      watchMs > 0
        ? setInterval(() => void this.checkStill(record, watch, onGone), watchMs)
        : undefined;
    watch?.unref();
    return {
      url: record.url,
      ...(record.rateLimit && { rateLimit: record.rateLimit }),
      close: () => {
        clearInterval(watch);
        return Promise.resolve();
      },
    };
  }

  private async checkStill(
    record: SandboxRecord,
    watch: NodeJS.Timeout | undefined,
    onGone: () => void,
  ): Promise<void> {
    const now = await liveRecord(this.dataDir);
    if (now?.url === record.url && now.pid === record.pid) return;
    clearInterval(watch);
    // Unless this process has meanwhile moved on from it (stopped, or another key).
    if (this.current?.url !== record.url) return;
    this.running = undefined;
    this.current = undefined;
    this.apiKey = undefined;
    this.set({ state: 'stopped' });
    onGone();
  }

  private set(status: LocalSandboxStatus): void {
    this.status = status;
    this.onStatus(status);
  }
}
