import type { LocalSandboxStatus } from '../../shared/ipc/profiles.ts';
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
 * The Local sandbox's lifetime: started in the background so the first window never waits for
 * it, awaited only by the calls that need its address.
 */
export class LocalSandbox {
  private running: Promise<RunningSandbox> | undefined;
  private current: RunningSandbox | undefined;
  status: LocalSandboxStatus = { state: 'absent' };

  constructor(
    private readonly start: StartLocalSandbox,
    private readonly dataDir: string,
    private readonly onStatus: (status: LocalSandboxStatus) => void,
  ) {}

  /** Starts it unless it is running or starting; resolves with its address. */
  ensure(apiKey: string): Promise<RunningSandbox> {
    if (this.running) return this.running;
    this.set({ state: 'starting' });
    const running = this.start({ dataDir: this.dataDir, apiKey }).then(
      (sandbox) => {
        this.current = sandbox;
        this.set({ state: 'running' });
        return sandbox;
      },
      (error: unknown) => {
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
    if (!running) return;
    const sandbox = await running.catch(() => undefined);
    await sandbox?.close();
    this.set({ state: 'stopped' });
  }

  private set(status: LocalSandboxStatus): void {
    this.status = status;
    this.onStatus(status);
  }
}
