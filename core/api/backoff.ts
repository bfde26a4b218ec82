/** How long to wait before retry number `attempt` (0 for the first retry): exponential, capped. */
export type BackoffPolicy = { readonly baseMs: number; readonly maxMs: number };

/**
 * Exponential backoff with full jitter: a uniform draw in [0, min(max, base·2^attempt)). Full
 * jitter spreads callers that failed together (one 429 storm, one dropped connection pool) so
 * that they do not come back together.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before retry number `attempt` when the service may have sent a `Retry-After` hint.
 * The hint is clamped to [base, max] (a `0` must not become a burst, a `9999999` not a wait of
 * months), jittered by up to one base so that callers told the same second do not come back
 * together, and never shorter than the backoff's own draw: a hint can slow a retry, not hasten it.
 */
export function retryDelay(
  attempt: number,
  policy: BackoffPolicy,
  hintMs: number | undefined,
  random: () => number = Math.random,
): number {
  const drawn = backoffDelay(attempt, policy, random);
  if (hintMs === undefined) return drawn;
  const clamped = Math.min(Math.max(hintMs, policy.baseMs), policy.maxMs);
  return Math.max(drawn, clamped + Math.floor(random() * policy.baseMs));
}

/**
 * A `Retry-After` value in milliseconds from `nowMs` (epoch time): delta-seconds or an HTTP date.
 * Undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, date - nowMs);
}
