import { Emitter } from '../../shared/app/emitter.ts';
import { systemClock, type Clock, type Timer } from '../../shared/node/clock.ts';

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
  /**
   * Time left of the key's shared cool-down after a 429, 0 when there is none: while it lasts
   * nobody is granted a slot ("Rate limited, retrying in 12 s").
   */
  readonly cooldownMs: number;
};

export interface Lease {
  /** The request is over (answered or failed); its slot starts to age from now. */
  release(): void;
  /**
   * The service answered this request with a 429: the slot is released, and unless a cool-down
   * began after this request left (the others of the same storm), every caller of the key now
   * waits `delayFor(streak, freesInMs)` ms. `streak` counts the cool-downs since the last request
   * that got through (0 for the first); `freesInMs` is when the oldest of our admitted requests
   * leaves the window, so that the service's window has a place again at the latest (undefined
   * with none). Returns the time left of the cool-down.
   */
  refused(delayFor: (streak: number, freesInMs: number | undefined) => number): number;
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

/**
 * `refused`: answered with a 429. It still counts here, as the service may count it too, but it
 * says nothing of when the service's window frees: only admitted requests do.
 */
type Slot = { at: number; inFlight: boolean; refused: boolean };
/** Where the key stands with the service's wall, as the last 429s and answers told. */
type Wall = {
  /** Clock time the current cool-down ends. */
  until: number;
  /** Bumped at each cool-down: a 429 to a request older than the current one is old news. */
  epoch: number;
  streak: number;
  /** After a cool-down, one request goes alone to see whether the wall is still there. */
  probing: boolean;
  probeInFlight: boolean;
};
type Waiter = { grant: (lease: Lease) => void };

/**
 * A client-side rolling window per API key, shared by every caller of that key, so that the app
 * stays under the service's limit instead of discovering it through 429s.
 *
 * A slot is stamped when its response arrives, not when its request leaves: the service counted
 * the request somewhere in between, so a slot freed one window after the answer is freed after
 * the service's copy, whatever the latency. That keeps the window exact without a safety margin.
 *
 * Another program on the same account spends the service's window without our knowing: the
 * 429s that follow stop every caller of the key at once for a shared cool-down, after which one
 * request (interactive first) goes alone, and the rest follow only once it gets through. A storm
 * thus costs one request per cool-down, not one per caller.
 */
export class RateGovernor {
  readonly limit: RateLimit;
  private readonly backgroundCapacity: number;
  /** The window's time: whoever waits for room in it waits on this clock. */
  readonly clock: Clock;
  private slots: Slot[] = [];
  private readonly queues: Record<Priority, Waiter[]> = { interactive: [], background: [] };
  private timer: Timer | undefined;
  private timerAt = Infinity;
  private readonly changes = new Emitter<BudgetState>('the rate governor');
  private readonly wall: Wall = {
    until: -Infinity,
    epoch: 0,
    streak: 0,
    probing: false,
    probeInFlight: false,
  };

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
        // Re-plans the wake-up too: with nobody left waiting, no timer holds the process.
        this.pump();
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
    const now = this.clock.now();
    const used = this.used(now);
    return {
      capacity: this.limit.requests,
      windowMs: this.limit.windowMs,
      used,
      remaining: Math.max(0, this.limit.requests - used),
      queued: {
        interactive: this.queues.interactive.length,
        background: this.queues.background.length,
      },
      cooldownMs: this.cooldownLeft(now),
    };
  }

  /**
   * Calls `listener` with the new state whenever a slot is taken or freed, the queue moves or a
   * cool-down begins or ends.
   */
  onChange(listener: (state: BudgetState) => void): () => void {
    return this.changes.subscribe(listener);
  }

  private used(now: number): number {
    this.slots = this.slots.filter((s) => s.inFlight || s.at + this.limit.windowMs > now);
    return this.slots.length;
  }

  private pump(): void {
    const now = this.clock.now();
    let used = this.used(now);
    for (;;) {
      if (now < this.wall.until || this.wall.probeInFlight) break;
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
      this.wall.probeInFlight = this.wall.probing;
      next.grant(this.take(now));
    }
    this.schedule(now);
    this.changed();
  }

  private take(now: number): Lease {
    const slot: Slot = { at: now, inFlight: true, refused: false };
    this.slots.push(slot);
    const epoch = this.wall.epoch;
    let over = false;
    const end = (refused: boolean): boolean => {
      if (over) return false;
      over = true;
      slot.at = this.clock.now();
      slot.inFlight = false;
      slot.refused = refused;
      return true;
    };
    return {
      release: () => {
        if (!end(false)) return;
        // An answer to a request sent since the last cool-down: the wall is gone.
        if (epoch === this.wall.epoch) this.passed();
        this.pump();
      },
      refused: (delayFor) => {
        if (end(true) && epoch === this.wall.epoch) this.coolDown(delayFor);
        this.pump();
        return this.cooldownLeft(this.clock.now());
      },
    };
  }

  /** Whole milliseconds, as a person reads the wait. */
  private cooldownLeft(now: number): number {
    return Math.max(0, Math.ceil(this.wall.until - now));
  }

  private passed(): void {
    this.wall.streak = 0;
    this.wall.probing = false;
    this.wall.probeInFlight = false;
  }

  private coolDown(delayFor: (streak: number, freesInMs: number | undefined) => number): void {
    const wall = this.wall;
    const now = this.clock.now();
    this.used(now);
    const frees = this.slots
      .filter((s) => !s.inFlight && !s.refused)
      .map((s) => s.at + this.limit.windowMs - now);
    const freesInMs = frees.length > 0 ? Math.min(...frees) : undefined;
    wall.until = now + Math.max(0, delayFor(wall.streak, freesInMs));
    wall.epoch += 1;
    wall.streak += 1;
    wall.probing = true;
    wall.probeInFlight = false;
  }

  /**
   * Wakes up when the cool-down ends, or else when the oldest finished slot leaves the window, if
   * anyone is still waiting.
   */
  private schedule(now: number): void {
    const waiting = this.queues.interactive.length + this.queues.background.length > 0;
    const ages = this.slots.filter((s) => !s.inFlight).map((s) => s.at + this.limit.windowMs);
    // With every slot in flight, or a probe out, there is nothing to wait for: its end pumps.
    const at = !waiting
      ? Infinity
      : now < this.wall.until
        ? this.wall.until
        : this.wall.probeInFlight || ages.length === 0
          ? Infinity
          : Math.min(...ages);
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
    if (this.changes.size > 0) this.changes.emit(this.state());
  }
}
