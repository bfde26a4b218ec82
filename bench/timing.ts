/** Timing helpers shared by the benches. */

export const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Median milliseconds of `samples` calls, after `warmup` unmeasured ones. */
export async function timeEach(
  samples: number,
  once: () => Promise<unknown>,
  warmup = 5,
): Promise<number> {
  for (let i = 0; i < warmup; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The value at quantile `q` (0 to 1) of `values`. */
export const quantile = (values: readonly number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ??
  0;

/**
 * The time between `frames` animation frames of `page` while `scroller` scrolls by `scroll` px a
 * frame. From the timestamps Chromium hands each frame (its begin time), not performance.now()
 * inside the callback: a callback run late within its frame drops nothing, and clock reads in
 * it measured scheduling jitter (p95 17.9 ms on an idle page).
 */
export function framesOf(
  page: { evaluate<T>(script: string): Promise<T> },
  scroller: string,
  scroll: number,
  frames: number,
): Promise<number[]> {
  // A string, not a function: tsx would wrap named arrows in a helper the page does not have.
  return page.evaluate<number[]>(`new Promise((resolve) => {
    const scroller = document.querySelector(${JSON.stringify(scroller)});
    const deltas = [];
    let last;
    const step = (now) => {
      if (last !== undefined) deltas.push(now - last);
      last = now;
      scroller.scrollTop += ${scroll};
      if (deltas.length < ${frames}) requestAnimationFrame(step);
      else resolve(deltas);
    };
    requestAnimationFrame(step);
  })`);
}
