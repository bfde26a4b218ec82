import type { MonitorHealth } from '../../shared/app/monitor.ts';
import { ApiError } from '../api/errors.ts';

export type Failure = {
  readonly health: Extract<MonitorHealth, 'unreachable' | 'unauthorized' | 'rate-limited'>;
  readonly reason: string;
  readonly errorCode: string | null;
};

/**
 * What a failed poll says about the API. A refused key (401) or a refused caller (403, an IP
 * policy) is `unauthorized`; a poll that ran out of time while the service kept answering 429 is
 * `rate-limited` (as is one still waiting for the client's own rate window); everything else (no connection, 5xx, an answer of the wrong shape) is
 * `unreachable`. None of them says anything about the agents.
 */
export function classifyFailure(error: unknown, rateLimited: boolean): Failure {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403))
    return { health: 'unauthorized', reason: error.message, errorCode: error.errorCode };
  if (rateLimited)
    return {
      health: 'rate-limited',
      reason: 'The service is rate limiting this key',
      errorCode: null,
    };
  const reason = error instanceof Error ? error.message : String(error);
  return {
    health: 'unreachable',
    reason,
    errorCode: error instanceof ApiError ? error.errorCode : null,
  };
}
