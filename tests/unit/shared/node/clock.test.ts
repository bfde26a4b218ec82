import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, systemClock } from '../../../../shared/node/clock.ts';

/** Vitest's fake timers fire a timeout over 2³¹−1 ms after 1 ms, as Node does. */
describe('systemClock', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds a timer longer than Node can, by chaining shorter ones', () => {
    const fired = vi.fn();
    systemClock.setTimer(fired, 2 * MAX_TIMER_MS + 10);
    vi.advanceTimersByTime(2 * MAX_TIMER_MS + 9);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('cancels a chained timer in any of its links', () => {
    const fired = vi.fn();
    const timer = systemClock.setTimer(fired, MAX_TIMER_MS + 10);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1);
    timer.cancel();
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
