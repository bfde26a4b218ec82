import { describe, expect, it } from 'vitest';
import { parseRateLimit, RateLimiter } from '../../../sandbox/http/rate-limit.ts';

describe('RateLimiter', () => {
  it('admits N per rolling window per account and says how long to wait', () => {
    let now = 0;
    const limiter = new RateLimiter({ requests: 3, windowSeconds: 10 }, () => now);
    expect([limiter.take('a'), limiter.take('a')]).toEqual([undefined, undefined]);
    now = 4000;
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')).toBe(6000);
    expect(limiter.take('b')).toBeUndefined();
    now = 10_000;
    // The two at t=0 have left the window; the one at t=4000 has not.
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')).toBe(4000);
    // Refusals are not recorded: waiting out the window is enough.
    now = 14_000;
    expect(limiter.take('a')).toBeUndefined();
  });

  it('parses --rate-limit', () => {
    expect(parseRateLimit('120/60')).toEqual({ requests: 120, windowSeconds: 60 });
    expect(parseRateLimit('off')).toBe('off');
    for (const bad of ['0/60', '5', '5/0', '-1/2', 'on', '1.5/2'])
      expect(() => parseRateLimit(bad)).toThrow();
  });
});
