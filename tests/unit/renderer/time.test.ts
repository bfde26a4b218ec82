import { expect, it } from 'vitest';
import { relativeTime } from '../../../renderer/src/lib/time.ts';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

it('never says a time the API just wrote is in the future: its clock a little ahead reads "now"', () => {
  expect(relativeTime(at(3_000), NOW)).toBe('now');
  expect(relativeTime(at(59_000), NOW)).toBe('now');
  expect(relativeTime(at(-9_000), NOW)).toBe('9 seconds ago');
});

it('still says the future where it is further ahead than any clock drifts', () => {
  expect(relativeTime(at(5 * 60_000), NOW)).toBe('in 5 minutes');
  expect(relativeTime(at(-3 * 3_600_000), NOW)).toBe('3 hours ago');
});
