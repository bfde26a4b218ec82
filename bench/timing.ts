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
