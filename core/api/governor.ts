import { systemClock, type Clock, type Timer } from './clock.ts';

/** What a person clicked goes first; polling and other unattended work waits behind it. */
export type Priority = 'interactive' | 'background';

export type RateLimit = { readonly requests: number; readonly windowMs: number };

/** The service's limit: 120 requests per rolling 60 s, per account. */
export const DEFAULT_RATE_LIMIT: RateLimit = { requests: 120, windowMs: 60_000 };

export type BudgetState = {
  readonly capacity: number;
  readonly windowMs: number;
  /** Requests in flight or sent within the last window. */
  readonly used: number;
  readonly remaining: number;
  readonly queued: { readonly interactive: number; readonly background: number };
};

export interface Lease {
  /** The request is over (answered or failed); its slot starts to age from now. */
  release(): void;
}

export type GovernorOptions = {
  readonly limit?: RateLimit;
  /**
   * Share of the window background work leaves to people: with 0.2 and 120 per minute,
   * polling stops at 96 so that a click never waits for the window to roll.
   */
  readonly backgroundReserve?: number;
  readonly clock?: Clock;
};

type Slot = { at: number; inFlight: boolean };
type Waiter = { grant: (lease: Lease) => void };

/**
 * A client-side rolling window per API key, shared by every caller of that key, so that the app
 * stays under the service's limit instead of discovering it through 429s.
 *
 * A slot is stamped when its response arrives, not when its request leaves: the service counted
 * the request somewhere in between, so a slot freed one window after the answer is freed after
 * the service's copy, whatever the latency. That keeps the window exact without a safety margin.
 */
export class RateGovernor {
  readonly limit: RateLimit;
  private readonly backgroundCapacity: number;
  private readonly clock: Clock;
  private slots: Slot[] = [];
  private readonly queues: Record<Priority, Waiter[]> = { interactive: [], background: [] };
  private timer: Timer | undefined;
  private timerAt = Infinity;
  private readonly listeners = new Set<(state: BudgetState) => void>();

  constructor(options: GovernorOptions = {}) {
    this.limit = options.limit ?? DEFAULT_RATE_LIMIT;
    if (!(this.limit.requests >= 1 && this.limit.windowMs > 0))
      throw new RangeError('A rate limit needs at least one request per positive window');
    const reserve = Math.floor(this.limit.requests * (options.backgroundReserve ?? 0.2));
    this.backgroundCapacity = Math.max(1, this.limit.requests - reserve);
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Waits for a slot. Within a priority, first come first served; a waiting interactive call
   * always goes before any background one. Rejects with `onAbort()` if `signal` fires first.
   */
  acquire(priority: Priority, signal?: AbortSignal, onAbort?: () => Error): Promise<Lease> {
    return new Promise((resolve, reject) => {
      const fail = () => reject(onAbort?.() ?? signal?.reason);
      if (signal?.aborted === true) return fail();
      const queue = this.queues[priority];
      const abort = () => {
        queue.splice(queue.indexOf(waiter), 1);
        this.changed();
        fail();
      };
      const waiter: Waiter = {
        grant: (lease) => {
          signal?.removeEventListener('abort', abort);
          resolve(lease);
        },
      };
      signal?.addEventListener('abort', abort, { once: true });
      queue.push(waiter);
      this.pump();
    });
  }

  state(): BudgetState {
    const used = this.used(this.clock.now());
    return {
      capacity: this.limit.requests,
      windowMs: this.limit.windowMs,
      used,
      remaining: Math.max(0, this.limit.requests - used),
      queued: {
        interactive: this.queues.interactive.length,
        background: this.queues.background.length,
      },
    };
  }

  /** Calls `listener` with the new state whenever a slot is taken or freed or the queue moves. */
  subscribe(listener: (state: BudgetState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private used(now: number): number {
    this.slots = this.slots.filter((s) => s.inFlight || s.at + this.limit.windowMs > now);
    return this.slots.length;
  }

  private pump(): void {
    const now = this.clock.now();
    let used = this.used(now);
    for (;;) {
      const { interactive, background } = this.queues;
      const next =
        interactive.length > 0
          ? used < this.limit.requests
            ? interactive.shift()
            : undefined
          : used < this.backgroundCapacity
            ? background.shift()
            : undefined;
      if (next === undefined) break;
      used += 1;
      next.grant(this.take(now));
    }
    this.schedule(now);
    this.changed();
  }

  private take(now: number): Lease {
    const slot: Slot = { at: now, inFlight: true };
    this.slots.push(slot);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        slot.at = this.clock.now();
        slot.inFlight = false;
        this.pump();
      },
    };
  }

  /** Wakes up when the oldest finished slot leaves the window, if anyone is still waiting. */
  private schedule(now: number): void {
    const waiting = this.queues.interactive.length + this.queues.background.length > 0;
    const ages = this.slots.filter((s) => !s.inFlight).map((s) => s.at + this.limit.windowMs);
    // With every slot in flight there is nothing to wait for: the next release pumps.
    const at = waiting && ages.length > 0 ? Math.min(...ages) : Infinity;
    if (at === this.timerAt) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = at;
    if (at !== Infinity) {
      this.timer = this.clock.setTimer(
        () => {
          this.timer = undefined;
          this.timerAt = Infinity;
          this.pump();
        },
        Math.max(0, at - now),
      );
    }
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const state = this.state();
    for (const listener of this.listeners) listener(state);
  }
}
