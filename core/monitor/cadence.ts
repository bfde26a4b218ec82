import { DEFAULT_POLL_SECONDS } from '../../shared/app/ipc/settings.ts';
import type { RateLimit } from '../api/governor.ts';

/** The share of an account's rate budget that monitoring may use. */
export const MONITOR_BUDGET_SHARE = 0.25;
export const DEFAULT_POLL_INTERVAL_MS = DEFAULT_POLL_SECONDS * 1000;

/**
 * How soon after a poll that first missed a session the poll that may confirm it comes: the
 * rule stays two polls, but the person hears of an offline agent this much after the first miss
 * instead of a whole interval. Long enough for an agent's restart (it replaces its own process
 * and reconnects at once) to show its new session first.
 */
export const CONFIRM_DELAY_MS = 2_000;

/**
 * The wait between two polls of each profile that shares one rate budget (one governor), so that
 * their polls together spend at most `share` of it: a poll costs one request per page (it is
 * not retried), and with 1,000 sessions (10 pages) and 120 per minute a quarter allows a poll
 * every 20 s, not every 5. The wait runs from the end of one poll to the start of the next, so
 * the same page of two polls is always at least the interval apart.
 */
export function pollInterval(
  baseMs: number,
  requestsPerRound: number,
  limit: RateLimit,
  share: number = MONITOR_BUDGET_SHARE,
): number {
  const budgetMs = (Math.max(1, requestsPerRound) * limit.windowMs) / (limit.requests * share);
  return Math.max(baseMs, Math.ceil(budgetMs));
}

/**
 * The wait before the poll after one that first missed a session: `confirmMs`, or none (the
 * interval as usual) when the cadence is stretched for the budget (a large account, many profiles
 * of one key), where an early poll would spend what the stretch saves.
 */
export function confirmDelay(
  baseMs: number,
  intervalMs: number,
  confirmMs: number,
): number | undefined {
  return intervalMs > baseMs ? undefined : Math.min(confirmMs, intervalMs);
}

/**
 * The most requests polling may have in the rate window for a confirming poll of `cost` to go
 * early: what the cadence itself spends in a window (one page every 5 s is 12 a minute), and at
 * least the poll itself. Confirming polls use the room the cadence leaves (its polls take time,
 * agents rarely leave), so agents leaving one after another cost the budget a poll or two, not
 * a poll each.
 */
export function confirmAllowance(cost: number, intervalMs: number, limit: RateLimit): number {
  return Math.max(cost, Math.floor((cost * limit.windowMs) / intervalMs));
}
