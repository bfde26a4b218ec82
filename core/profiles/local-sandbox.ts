import type { LocalSandboxStatus } from '../../shared/app/ipc/profiles.ts';
import type { RateLimit } from '../api/governor.ts';

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

/**
 * The Local sandbox's lifetime: made lazily, when its profile's first client is asked for (the
 * app asks at start-up without waiting, so the first window never waits for it), and awaited
 * only by the calls that need its address.
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
      .then(() => this.start({ dataDir: this.dataDir, apiKey }))
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

  private set(status: LocalSandboxStatus): void {
    this.status = status;
    this.onStatus(status);
  }
}
