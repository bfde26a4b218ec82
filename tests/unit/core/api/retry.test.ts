import { describe, expect, it } from 'vitest';
import type { HttpMethod } from '../../../../shared/api/endpoints.ts';
import { ApiError, AbortError, NetworkError } from '../../../../core/api/errors.ts';
import { DEFAULT_RETRY_POLICY, retryDecision } from '../../../../core/api/retry.ts';

const none = { rateLimited: 0, transient: 0 };
const half = () => 0.5;
const status = (s: number) =>
  new ApiError({ status: s, errorCode: null, msg: 'x', operationId: undefined });
const rateLimited = new ApiError({
  status: 429,
  errorCode: 'ERR_SERVICE_226',
  msg: 'rate limit',
  operationId: 'op_1',
});
const dropped = new NetworkError('connection', 'api.example.com', 'UND_ERR_SOCKET', null);
const decide = (method: HttpMethod, error: unknown, attempts = none, retryAfterMs?: number) =>
  retryDecision(method, error, attempts, DEFAULT_RETRY_POLICY, retryAfterMs, half);

describe('retryDecision', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'retries a 429 on %s without limit, backing off exponentially',
    (method) => {
      expect(decide(method, rateLimited)).toEqual({ kind: 'rate-limited', delayMs: 500 });
      expect(decide(method, rateLimited, { rateLimited: 3, transient: 0 })).toEqual({
        kind: 'rate-limited',
        delayMs: 4_000,
      });
      expect(decide(method, rateLimited, { rateLimited: 1_000, transient: 9 })).toEqual({
        kind: 'rate-limited',
        delayMs: 30_000,
      });
    },
  );

  it('honours Retry-After instead of its own draw', () => {
    expect(decide('POST', rateLimited, none, 12_000)).toEqual({
      kind: 'rate-limited',
      delayMs: 12_000,
    });
  });

  it.each(['GET', 'PUT', 'DELETE'] as const)(
    'retries %s on network errors and 502/503/504, a bounded number of times',
    (method) => {
      for (const error of [dropped, status(502), status(503), status(504)])
        expect(decide(method, error)).toEqual({ kind: 'transient', delayMs: 125 });
      const spent = { rateLimited: 0, transient: DEFAULT_RETRY_POLICY.maxRetries };
      expect(decide(method, dropped, spent)).toBeNull();
    },
  );

  it.each(['POST', 'PATCH'] as const)(
    'never repeats %s the service may have processed',
    (method) => {
      for (const error of [dropped, status(502), status(503), status(504)])
        expect(decide(method, error)).toBeNull();
    },
  );

  it('gives up at once on errors a retry cannot fix', () => {
    for (const error of [status(400), status(404), status(500), new AbortError('x'), new Error()])
      expect(decide('GET', error)).toBeNull();
  });
});
