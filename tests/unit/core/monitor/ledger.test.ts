import { describe, expect, it } from 'vitest';
import { BudgetLedger } from '../../../../core/monitor/ledger.ts';

// A quarter of 120 a minute: 30 requests in any 60 s.
const limit = { requests: 120, windowMs: 60_000 };

function spend(ledger: BudgetLedger, at: number, requests: number): void {
  const hold = ledger.hold(requests);
  for (let i = 0; i < requests; i++) hold.spent(at);
  hold.release();
}

describe('BudgetLedger', () => {
  it('lets a poll start at once while the last window has room for it', () => {
    const ledger = new BudgetLedger(limit, 0.25);
    spend(ledger, 0, 10);
    spend(ledger, 20_000, 10);
    expect(ledger.waitFor(40_000, 10)).toBe(0);
  });

  it('holds a whole poll back until a cut-short one and two whole ones leave room', () => {
    const ledger = new BudgetLedger(limit, 0.25);
    spend(ledger, 0, 6);
    spend(ledger, 15_000, 10);
    spend(ledger, 35_000, 10);
    // 26 in the window: the next 10 need the 6 of t=0 gone, at t=60 s.
    expect(ledger.waitFor(55_000, 10)).toBe(5_000);
    expect(ledger.waitFor(60_000, 10)).toBe(0);
  });

  it('counts what a poll in progress has reserved and not made yet', () => {
    const ledger = new BudgetLedger(limit, 0.25);
    const hold = ledger.hold(10);
    hold.spent(0);
    spend(ledger, 1_000, 10);
    // 11 made, 9 still reserved: 20 of 30, so a poll of 10 fits and one of 11 does not.
    expect(ledger.waitFor(2_000, 10)).toBe(0);
    expect(ledger.waitFor(2_000, 11)).toBe(58_000);
    hold.release();
    expect(ledger.waitFor(2_000, 11)).toBe(0);
  });

  it('gives a poll dearer than the whole share a window with nothing else in it', () => {
    const ledger = new BudgetLedger(limit, 0.25);
    spend(ledger, 0, 40);
    expect(ledger.waitFor(30_000, 40)).toBe(30_000);
    expect(ledger.waitFor(60_000, 40)).toBe(0);
  });
});
