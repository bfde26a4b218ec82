import type { Clock } from '../../shared/node/clock.ts';

/**
 * Time that moves when the test says: a wait begun is kept until `step`, so the test knows the
 * code is waiting, and decides what happens before the wait ends.
 */
export function steppedClock() {
  let time = 0;
  const waits: { ms: number; callback: () => void; cancelled: boolean }[] = [];
  const pending = () => waits.filter((w) => !w.cancelled);
  const clock: Clock = {
    now: () => time,
    setTimer(callback, ms) {
      const wait = { ms, callback, cancelled: false };
      waits.push(wait);
      return { cancel: () => void (wait.cancelled = true) };
    },
  };
  return {
    clock,
    /** Until the code waits; after 45 s (a backstop) fails with what `said` sees then. */
    async waiting(said: () => unknown): Promise<void> {
      const end = Date.now() + 45_000;
      while (pending().length === 0) {
        if (Date.now() > end) throw new Error(`nothing waited; saw ${JSON.stringify(said())}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    /** Ends the wait begun, `extraMs` beyond its length. */
    step(extraMs = 0) {
      const [wait] = pending();
      if (!wait) throw new Error('nothing waits');
      wait.cancelled = true;
      time += wait.ms + extraMs;
      wait.callback();
    },
  };
}
