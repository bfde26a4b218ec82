import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMIT } from '../../../../core/api/governor.ts';
import {
  CONFIRM_DELAY_MS,
  confirmAllowance,
  confirmDelay,
  DEFAULT_POLL_INTERVAL_MS,
  pollInterval,
} from '../../../../core/monitor/cadence.ts';
import { classifyFailure } from '../../../../core/monitor/health.ts';
import { ApiError, NetworkError } from '../../../../core/api/errors.ts';

/** A 5 s setting's interval for this many pages a poll. */
const defaultInterval = (pages: number) =>
  pollInterval(DEFAULT_POLL_INTERVAL_MS, pages, DEFAULT_RATE_LIMIT);

describe('pollInterval', () => {
  it('keeps 5 s while one page a poll is within a quarter of 120 per minute', () => {
    expect(defaultInterval(1)).toBe(5_000);
    // Six pages (600 sessions) every 12 s is the quarter's 30 a minute.
    expect(defaultInterval(6)).toBe(12_000);
  });

  it('stretches for 1,000 sessions (10 pages) to stay at 30 requests a minute', () => {
    const interval = defaultInterval(10);
    expect(interval).toBe(20_000);
    expect((10 * 60_000) / interval).toBeLessThanOrEqual(30);
  });

  it('counts every profile of one budget together', () => {
    expect(pollInterval(15_000, 3 * 10, DEFAULT_RATE_LIMIT)).toBe(60_000);
  });
});

describe('confirmDelay', () => {
  it('confirms a miss 2 s after it while the cadence has room', () => {
    expect(confirmDelay(5_000, 5_000, CONFIRM_DELAY_MS)).toBe(2_000);
    // A person's shorter interval is never lengthened by the confirmation.
    expect(confirmDelay(1_000, 1_000, CONFIRM_DELAY_MS)).toBe(1_000);
  });

  it('leaves the confirmation to the stretched interval when the budget stretched it', () => {
    expect(confirmDelay(5_000, 20_000, CONFIRM_DELAY_MS)).toBeUndefined();
  });
});

describe('confirmAllowance', () => {
  it('lets confirming polls use the room the cadence leaves in a window', () => {
    // One page every 5 s is 12 of 120 a minute: a confirming poll may be the 12th.
    expect(confirmAllowance(1, 5_000, DEFAULT_RATE_LIMIT)).toBe(12);
    expect(confirmAllowance(3, 5_000, DEFAULT_RATE_LIMIT)).toBe(36);
  });

  it('always allows the poll itself in a window shorter than the interval', () => {
    expect(confirmAllowance(1, 5_000, { requests: 1_000, windowMs: 1_000 })).toBe(1);
  });
});

describe('classifyFailure', () => {
  const apiError = (status: number, code: string) =>
    new ApiError({ status, errorCode: code, msg: 'no', operationId: 'op_1' });

  it('takes a refused key or caller for unauthorized', () => {
    expect(classifyFailure(apiError(401, 'ERR_SERVICE_203'), false)).toMatchObject({
      health: 'unauthorized',
      errorCode: 'ERR_SERVICE_203',
    });
    expect(classifyFailure(apiError(403, 'ERR_SERVICE_999'), true).health).toBe('unauthorized');
  });

  it('takes a poll that ran out of time behind 429s for rate-limited', () => {
    expect(classifyFailure(new Error('Cancelled'), true).health).toBe('rate-limited');
  });

  it('takes anything else for unreachable, with its message', () => {
    const network = new NetworkError('connection', '127.0.0.1', 'ECONNREFUSED', undefined);
    expect(classifyFailure(network, false)).toEqual({
      health: 'unreachable',
      reason: network.message,
      errorCode: null,
    });
    expect(classifyFailure(apiError(503, 'ERR_SERVICE_341'), false).health).toBe('unreachable');
    expect(classifyFailure('a string', false).reason).toBe('a string');
  });
});
