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
 * The wait before the poll after one that first missed a session: `confirmMs`, unless the
 * cadence is stretched for the budget (a large account, or many profiles of one key), where an
 * early poll would spend what the stretch saves, so the confirmation waits the interval.
 */
export function confirmInterval(baseMs: number, intervalMs: number, confirmMs: number): number {
  return intervalMs > baseMs ? intervalMs : Math.min(confirmMs, intervalMs);
}
