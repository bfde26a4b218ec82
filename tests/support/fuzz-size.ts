/**
 * How many cases the fuzz suites draw. `npm test` runs a CI-sized share of each: the same seed,
 * the same generator and the same assertions over the first cases of the full sequence, so a case
 * it runs is exactly the case the full run has at that index. `BURROW_FUZZ=full` (`npm run
 * test:fuzz`) runs every suite at its full count, as before.
 */
export const FUZZ_FULL = process.env['BURROW_FUZZ'] === 'full';

/** `full` under BURROW_FUZZ=full, else `ci`. */
export function fuzzCount(full: number, ci: number): number {
  return FUZZ_FULL ? full : ci;
}
