import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, retryDelay } from '../../../../core/api/backoff.ts';

const policy = { baseMs: 100, maxMs: 1_000 };

describe('backoffDelay', () => {
  it('draws uniformly below an exponential ceiling (full jitter)', () => {
    expect(backoffDelay(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(200);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });

  it('caps the ceiling, however many attempts', () => {
    expect(backoffDelay(4, policy, () => 0.999)).toBe(999);
    expect(backoffDelay(500, policy, () => 0.999)).toBe(999);
  });

  it('uses Math.random by default, within bounds', () => {
    for (let i = 0; i < 100; i += 1) {
      const delay = backoffDelay(1, policy);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(200);
    }
  });
});

describe('retryDelay', () => {
  const lowest = () => 0;
  const highest = () => 0.999;

  it('is the backoff when the service gave no hint', () => {
    expect(retryDelay(2, policy, undefined, () => 0.5)).toBe(200);
  });

  it('clamps a hint between base and max, then adds up to one base of jitter', () => {
    expect(retryDelay(0, policy, 500, lowest)).toBe(500);
    expect(retryDelay(0, policy, 500, highest)).toBe(599);
    // A zero or past hint is no licence to come back at once.
    expect(retryDelay(0, policy, 0, lowest)).toBe(100);
    // One of months waits the policy's longest, not months (nor, overflowed, a millisecond).
    expect(retryDelay(0, policy, 9_999_999_000, lowest)).toBe(1_000);
    expect(retryDelay(0, policy, 9_999_999_000, highest)).toBe(1_099);
    expect(retryDelay(0, policy, Number.MAX_VALUE, lowest)).toBe(1_000);
  });

  it('never retries sooner than the backoff would', () => {
    // Attempt 4 draws 999 of a 1 s ceiling; a 0 s hint does not cut it to 100.
    expect(retryDelay(4, policy, 0, highest)).toBe(999);
    expect(retryDelay(4, policy, 0, lowest)).toBe(100);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-31T12:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('12', now)).toBe(12_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, never negative', () => {
    expect(parseRetryAfter('Fri, 31 Jan 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 31 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read, so the caller backs off on its own', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });
});
