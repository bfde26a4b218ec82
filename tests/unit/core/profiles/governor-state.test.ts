import { describe, expect, it } from 'vitest';
import type { BudgetState } from '../../../../core/api/governor.ts';
import { governorState } from '../../../../core/profiles/app.ts';

const budget: BudgetState = {
  capacity: 120,
  windowMs: 60_000,
  used: 120,
  remaining: 0,
  queued: { interactive: 2, background: 5 },
  cooldownMs: 0,
};

describe('governorState', () => {
  it('carries the budget, and no cool-down while there is none', () => {
    expect(governorState('prf_a', budget, 1_000)).toEqual({
      profileId: 'prf_a',
      capacity: 120,
      windowMs: 60_000,
      used: 120,
      remaining: 0,
      queued: { interactive: 2, background: 5 },
      coolingDownUntil: null,
    });
  });

  it('turns a cool-down into the wall-clock time it ends, for the renderer to count down to', () => {
    expect(governorState('prf_a', { ...budget, cooldownMs: 12_000 }, 1_000)).toMatchObject({
      coolingDownUntil: 13_000,
    });
  });
});
