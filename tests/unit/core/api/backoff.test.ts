import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../../../core/api/backoff.ts';

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
  });
});
