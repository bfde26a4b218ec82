import type { LocalSandboxStatus } from '../../shared/app/ipc/profiles.ts';
import { sleep, systemClock, type Clock, type Timer } from '../../shared/node/clock.ts';
import { ownSandbox } from './local-sandbox-owner.ts';
import {
  liveRecord,
  ownerToken,
  recordedNow,
  stillRecorded,
  type SandboxRecord,
} from './local-sandbox-record.ts';
import type { RunningSandbox, StartLocalSandbox } from './local-sandbox-start.ts';
import { addUser } from './local-sandbox-users.ts';

/** How the data file's lock says another sandbox has it (sandbox/store/lock.ts). */
const HELD_ELSEWHERE = /in use by another sandbox/;

/**
 * How long the data file may stay held by another process that records no sandbox before this
 * one gives up: that process may be starting one (on a loaded machine, tens of seconds), or
 * letting go of it (its record gone first); one that never records (an older Burrow, or a
 * sandbox that hangs) is refused after this.
 */
const HELD_WAIT_MS = 60_000;

/** Between two looks at a held data file: the next owner has it this soon after it is let go. */
const HELD_RETRY_MS = 100;

/**
 * How long a joined sandbox may stay silent (recorded, its process running, no proof) before it is
 * taken for gone. One look missed is a loaded machine's slow answer, not an owner gone: taking it
 * for one would close the clients whose calls are under way (a run of eight starters failed so).
 */
const SILENT_GONE_MS = 10_000;

/** What a start waiting for a held data file says, naming the holder as the lock does. */
function heldMessage(error: unknown): string {
  const holder = /\(pid \d+\)/.exec(String(error))?.[0];
  return (
    `The Local sandbox's data file is held by another process${holder ? ` ${holder}` : ''}: ` +
    'waiting for it to record its sandbox, or to let go of the file'
  );
}

export type LocalSandboxSharing = {
  /**
   * How often a sandbox that another process runs is checked; once it has gone, `onGone`. 0:
   * not checked (a command's lifetime is short): a command instead says it uses that sandbox,
   * and its owner lets it finish before it quits (local-sandbox-users.ts).
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
 * One sandbox per data file, shared, with one owner at a time: the process that holds the data
 * file (its lock) runs it and records where it listens with a secret of this start
 * (local-sandbox-record.ts); another that needs it sends the key there only once the sandbox has
 * proved it knows the secret, and uses it rather than opening the same data file, until it goes.
 *
 * Hand-overs never fail: the owner, quitting, removes its record, lets the commands using its
 * sandbox finish (local-sandbox-owner.ts), then closes it and lets go of the file. A process that
 * meanwhile (or while an owner starts) finds the file held with nothing recorded waits for it
 * (every HELD_RETRY_MS on the injected clock, up to HELD_WAIT_MS), saying so in its status, and
 * takes the file or joins the new record as soon as one is there.
 */
export class LocalSandbox {
  private running: Promise<RunningSandbox> | undefined;
  private current: RunningSandbox | undefined;
  /** The key the running (or starting) sandbox accepts. */
  private apiKey: string | undefined;
  /** Ends the running start's waits for a data file held elsewhere, when it is stopped. */
  private starting: AbortController | undefined;
  status: LocalSandboxStatus = { state: 'absent' };

  constructor(
    private readonly start: StartLocalSandbox,
    private readonly dataDir: string,
    private readonly onStatus: (status: LocalSandboxStatus) => void,
    private readonly sharing: LocalSandboxSharing = { watchMs: 0, onGone: () => undefined },
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Starts it unless it is running or starting with this key; resolves with its address. A
   * sandbox started with another key (a profile removed and made again) is stopped first: it
   * would refuse the new key. `claim` answers, once this process has the data file, the key its
   * sandbox must accept (ProfileKeys.claim): when not the one it started with, it starts again.
   * A sandbox joined instead accepts the key its own process claimed.
   */
  ensure(
    apiKey: string,
    claim: (started: string) => Promise<string> = (started) => Promise.resolve(started),
  ): Promise<RunningSandbox> {
    if (this.running && this.apiKey === apiKey) return this.running;
    const previous = this.stop();
    this.apiKey = apiKey;
    this.set({ state: 'starting' });
    const starting = new AbortController();
    this.starting = starting;
    const running = previous
      .then(() => this.startOrJoin(apiKey, claim, starting.signal))
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
    this.starting?.abort();
    this.starting = undefined;
    if (!running) return;
    const sandbox = await running.catch(() => undefined);
    await sandbox?.close();
    // Unless a start with another key follows this stop and says so itself.
    if (this.running === undefined) this.set({ state: 'stopped' });
  }

  /**
   * The sandbox another process runs on this data folder, or one of this process's, recorded.
   * The data file held with no sandbox recorded is another process starting one, or quitting:
   * looked at again until it records one or lets go, never taken for a failure at once.
   */
  private async startOrJoin(
    apiKey: string,
    claim: (started: string) => Promise<string>,
    stopped: AbortSignal,
  ): Promise<RunningSandbox> {
    const until = this.clock.now() + HELD_WAIT_MS;
    let key = apiKey;
    let said = false;
    for (;;) {
      const theirs = await liveRecord(this.dataDir);
      const joined = theirs && (await this.join(theirs));
      if (joined) return joined;
      const secret = ownerToken();
      let sandbox: RunningSandbox;
      try {
        sandbox = await this.start({ dataDir: this.dataDir, apiKey: key, ownerSecret: secret });
      } catch (error) {
        if (!HELD_ELSEWHERE.test(String(error))) throw error;
        if (this.clock.now() >= until)
          throw new Error(
            `${error instanceof Error ? error.message : String(error)}, and for ` +
              `${HELD_WAIT_MS / 1000} s it recorded no sandbox this one could use (an older ` +
              `Burrow, or a sandbox that does not answer): quit it to use the Local sandbox here`,
            { cause: error },
          );
        // Once, and only while this is the current start: a wait of seconds is said, not silent.
        if (!said && this.starting?.signal === stopped) {
          said = true;
          this.set({ state: 'starting', message: heldMessage(error) });
        }
        await sleep(
          this.clock,
          HELD_RETRY_MS,
          stopped,
          () => new Error('it was stopped while another process held its data file'),
        );
        continue;
      }
      const claimed = await claim(key).catch(async (error: unknown) => {
        await sandbox.close();
        throw error;
      });
      if (claimed === key) return ownSandbox(this.dataDir, sandbox, secret, this.clock);
      // Another process claimed its key first, which is the one joiners read: started again.
      await sandbox.close();
      key = claimed;
      // The key this start is for, unless it was stopped meanwhile (the start is not the current).
      if (this.starting?.signal === stopped) this.apiKey = claimed;
    }
  }

  /**
   * Uses another process's sandbox; closing it only stops watching it, or says this command
   * uses it no more. Undefined: that sandbox is closing (its record gone since it was read).
   */
  private async join(record: SandboxRecord): Promise<RunningSandbox | undefined> {
    const { watchMs, onGone } = this.sharing;
    // A command (not watching) says it uses the sandbox before it looks at the record again; the
    // process quitting removes its record before it looks for users: one of the two sees the
    // other, and the sandbox is never closed under a command that has just joined it.
    const leave = watchMs > 0 ? undefined : await addUser(this.dataDir);
    if (leave && !(await stillRecorded(this.dataDir, record))) {
      await leave();
      return undefined;
    }
    const unwatch = watchMs > 0 ? this.watch(record, onGone) : undefined;
    return {
      url: record.url,
      ...(record.rateLimit && { rateLimit: record.rateLimit }),
      joined: true,
      close: async () => {
        unwatch?.();
        await leave?.();
      },
    };
  }

  /**
   * Looks at a joined sandbox every `watchMs` on the clock, each look after the last has ended
   * (a slow proof never piles looks up), until it is gone; the answer stops looking.
   */
  private watch(record: SandboxRecord, onGone: () => void): () => void {
    let timer: Timer | undefined;
    let silentSince: number | undefined;
    let watching = true;
    const look = async () => {
      const seen = await recordedNow(this.dataDir, record);
      if (!watching) return;
      silentSince = seen === 'silent' ? (silentSince ?? this.clock.now()) : undefined;
      const silentTooLong =
        silentSince !== undefined && this.clock.now() - silentSince >= SILENT_GONE_MS;
      if (seen === 'gone' || silentTooLong) this.gone(record, onGone);
      else timer = this.clock.setTimer(() => void look(), this.sharing.watchMs);
    };
    timer = this.clock.setTimer(() => void look(), this.sharing.watchMs);
    return () => {
      watching = false;
      timer?.cancel();
    };
  }

  private gone(record: SandboxRecord, onGone: () => void): void {
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
