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

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimer(callback, ms) {
    const handle = setTimeout(callback, ms);
    return { cancel: () => clearTimeout(handle) };
  },
};

/**
 * Resolves after `ms`, or rejects with `onAbort()` as soon as `signal` fires: a caller that gives
 * up mid-backoff hears so at once, not when the wait would have ended.
 */
export function sleep(
  clock: Clock,
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
