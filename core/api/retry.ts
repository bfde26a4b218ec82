import type { HttpMethod } from '../../shared/api/endpoints.ts';
import { backoffDelay, type BackoffPolicy } from './backoff.ts';
import { ApiError, NetworkError } from './errors.ts';

export type RetryPolicy = {
  /** Retries of an idempotent call after a network failure or a 502/503/504. */
  readonly maxRetries: number;
  readonly backoff: BackoffPolicy;
  /** Waits after a 429; these retries have no limit but the caller's AbortSignal. */
  readonly rateLimitBackoff: BackoffPolicy;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  backoff: { baseMs: 250, maxMs: 8_000 },
  // The service's window is a minute long: backing off up to a minute lets it roll.
  rateLimitBackoff: { baseMs: 1_000, maxMs: 60_000 },
};

/**
 * GET, PUT (a whole-module replace) and DELETE give the same result when repeated. POST and PATCH
 * might have been processed before the failure, so they are not repeated behind the caller's back.
 */
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

export type Attempts = { readonly rateLimited: number; readonly transient: number };

export type RetryDecision =
  | { readonly kind: 'rate-limited'; readonly delayMs: number }
  | { readonly kind: 'transient'; readonly delayMs: number }
  | null;

/**
 * Whether and when to try a failed call again. A 429 is always retried, whatever the method: the
 * service refused the request without processing it. `retryAfterMs`, when the service sent one,
 * replaces the drawn backoff.
 */
export function retryDecision(
  method: HttpMethod,
  error: unknown,
  attempts: Attempts,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random?: () => number,
): RetryDecision {
  if (error instanceof ApiError && error.isRateLimit)
    return {
      kind: 'rate-limited',
      delayMs: retryAfterMs ?? backoffDelay(attempts.rateLimited, policy.rateLimitBackoff, random),
    };
  const transient =
    error instanceof NetworkError ||
    (error instanceof ApiError && TRANSIENT_STATUSES.has(error.status));
  if (!transient || !IDEMPOTENT.has(method) || attempts.transient >= policy.maxRetries) return null;
  return {
    kind: 'transient',
    delayMs: retryAfterMs ?? backoffDelay(attempts.transient, policy.backoff, random),
  };
}
