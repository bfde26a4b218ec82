import type { HttpMethod } from '../../shared/api/catalog/endpoint-builders.ts';
import type { BackoffPolicy } from './backoff.ts';
import { ApiError, NetworkError } from './errors.ts';

export type RetryPolicy = {
  /** Retries of an idempotent call after a network failure or a 502/503/504. */
  readonly maxRetries: number;
  readonly backoff: BackoffPolicy;
  /**
   * The key's shared cool-downs after 429s, the n-th in a row drawn as retry n; these retries
   * have no limit but the caller's AbortSignal.
   */
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

export type RetryKind = 'rate-limited' | 'transient';

/**
 * Whether a failed call may be tried again, and as what. A 429 is always retried, whatever the
 * method: the service refused the request without processing it; the governor decides when.
 * Anything else only when it is transient, the method idempotent and retries are left
 * (`maxRetries`: the policy's, or the call's own).
 */
export function retryKind(
  method: HttpMethod,
  error: unknown,
  transientAttempts: number,
  maxRetries: number,
): RetryKind | null {
  if (error instanceof ApiError && error.isRateLimit) return 'rate-limited';
  const transient =
    error instanceof NetworkError ||
    (error instanceof ApiError && TRANSIENT_STATUSES.has(error.status));
  if (!transient || !IDEMPOTENT.has(method) || transientAttempts >= maxRetries) return null;
  return 'transient';
}
