/**
 * Time as the governor and the retry loop see it, injectable so that their logic is tested with
 * fake time. `now` is monotonic milliseconds: a wall-clock jump must not open or close the window.
 */
export interface Clock {
  now(): number;
  setTimer(callback: () => void, ms: number): Timer;
}

export interface Timer {
  cancel(): void;
}

/** Node fires a longer timeout after 1 ms, with a warning: longer waits are chained. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimer(callback, ms) {
    let handle: ReturnType<typeof setTimeout>;
    const arm = (left: number) => {
      handle =
        left > MAX_TIMER_MS
          ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS)
          : setTimeout(callback, left);
    };
    arm(ms);
    return { cancel: () => clearTimeout(handle) };
  },
};

/**
 * Resolves after `ms`, or rejects with `onAbort()` as soon as `signal` fires: a caller that gives
 * up mid-backoff hears so at once, not when the wait would have ended.
 */
export function sleep(
  clock: Pick<Clock, 'setTimer'>,
  ms: number,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(onAbort());
    const abort = () => {
      timer.cancel();
      reject(onAbort());
    };
    const timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
