import type { Clock, Timer } from '../../../../core/api/clock.ts';

/** Time that moves only when a test says so; due timers run in order as it moves. */
export class FakeClock implements Clock {
  private time = 0;
  private timers: { at: number; callback: () => void }[] = [];

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, ms: number): Timer {
    const timer = { at: this.time + ms, callback };
    this.timers.push(timer);
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
}

/** Lets promise callbacks (grants, releases) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}
