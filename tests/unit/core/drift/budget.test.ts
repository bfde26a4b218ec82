import { describe, expect, it } from 'vitest';
import { HourlySpend, hourlyAllowance } from '../../../../core/drift/budget.ts';

const HOUR = 3_600_000;

describe("drift watch's share of the rate limit", () => {
  it("is a percent of what the key's window allows in an hour", () => {
    expect(hourlyAllowance({ capacity: 120, windowMs: 60_000 }, 5)).toBe(360);
    expect(hourlyAllowance({ capacity: 20, windowMs: 60_000 }, 1)).toBe(12);
  });

  it('lets checks through until the hour is spent, then waits for the oldest to age out', () => {
    const spend = new HourlySpend();
    expect(spend.fits(11, 24, 0)).toEqual({ ok: true });
    spend.record(0, 11);
    spend.record(60_000, 11);
    expect(spend.fits(11, 24, 120_000)).toEqual({ ok: false, retryAt: HOUR });
    expect(spend.fits(11, 24, HOUR)).toEqual({ ok: true });
  });

  it('runs a check larger than the whole allowance once the hour is clear', () => {
    const spend = new HourlySpend();
    expect(spend.fits(110, 36, 0)).toEqual({ ok: true });
    spend.record(0, 110);
    expect(spend.fits(110, 36, 1_000)).toEqual({ ok: false, retryAt: HOUR });
  });
});
