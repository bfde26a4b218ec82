import type { RateLimit } from '../api/governor.ts';

/** The requests a poll in progress has reserved and not yet made. */
export interface Hold {
  /** One of the poll's requests ended (answered or failed) at `at`. */
  spent(at: number): void;
  /** The poll is over: what it reserved and did not make is free again. */
  release(): void;
}

/**
 * What polling has spent of one rate budget (one governor), counted as the governor counts: a
 * request from its start until one window after its end. The interval between polls spaces
 * them evenly in the steady state; this guards the windows that the interval alone does not:
 * a list that has grown since the poll the interval was computed from, a poll cut short followed
 * by a whole one, two profiles of one key polling at once. Before a poll starts, the requests
 * that ended within the last window, the other polls' reservations and this poll's expected cost
 * must fit in the share; then any window ending during the poll fits too, as long as the poll
 * costs what it was expected to.
 */
export class BudgetLedger {
  private ends: number[] = [];
  private reserved = 0;
  private readonly budget: number;
  private readonly windowMs: number;

  constructor(limit: RateLimit, share: number) {
    this.budget = Math.max(1, Math.floor(limit.requests * share));
    this.windowMs = limit.windowMs;
  }

  /**
   * How long to wait from `now` before a poll of `cost` requests fits in the share, or in
   * `budget` requests when given. A poll dearer than that waits for a window with nothing else
   * in it, the least it can spend.
   */
  waitFor(now: number, cost: number, budget = this.budget): number {
    this.forget(now);
    const excess = Math.min(this.ends.length, this.ends.length + this.reserved + cost - budget);
    if (excess <= 0) return 0;
    // The `excess` oldest requests must leave the window first.
    return Math.max(0, (this.ends[excess - 1] ?? now) + this.windowMs - now);
  }

  /** Reserves `cost` requests for a poll that starts now. */
  hold(cost: number): Hold {
    let left = cost;
    this.reserved += left;
    return {
      spent: (at) => {
        this.ends.push(at);
        if (left > 0) {
          left -= 1;
          this.reserved -= 1;
        }
      },
      release: () => {
        this.reserved -= left;
        left = 0;
      },
    };
  }

  private forget(now: number): void {
    const first = this.ends.findIndex((end) => end + this.windowMs > now);
    this.ends = first === -1 ? [] : this.ends.slice(first);
  }
}
