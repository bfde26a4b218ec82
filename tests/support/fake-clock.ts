import type { Clock, Timer } from '../../shared/node/clock.ts';

/** Time that moves only when a test says so; due timers run in order as it moves. */
export class FakeClock implements Clock {
  private time = 0;
  private timers: { at: number; callback: () => void }[] = [];
  private timerSet: (() => void) | undefined;

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, ms: number): Timer {
    const timer = { at: this.time + ms, callback };
    this.timers.push(timer);
    this.timerSet?.();
    return { cancel: () => (this.timers = this.timers.filter((t) => t !== timer)) };
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await flush();
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = target;
    await flush();
  }

  /**
   * Settles `work` whose waits come between real I/O (a retry's backoff after a loopback
   * server's answer): whenever one of this clock's timers is pending, time jumps to it. Only for
   * work that never races such a timer against I/O, which the jump would cut short.
   */
  async runUntil<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const done = work.then(
      () => (settled = true),
      () => (settled = true),
    );
    while (!settled) {
      // A turn of the event loop first: I/O that has come in is handled before time moves, and a
      // timer that re-arms itself cannot keep the loop from ever reaching it.
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) break;
      const next = Math.min(...this.timers.map((t) => t.at));
      if (next !== Infinity) {
        await this.advance(next - this.time);
        continue;
      }
      await Promise.race([done, new Promise<void>((resolve) => (this.timerSet = resolve))]);
      this.timerSet = undefined;
    }
    return work;
  }
}

/** Lets promise callbacks (grants, releases) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}
