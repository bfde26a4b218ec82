import { describe, expect, it } from 'vitest';
import type { HttpMethod } from '../../../../shared/api/catalog/endpoint-builders.ts';
import { ApiError, AbortError, NetworkError, RequestError } from '../../../../core/api/errors.ts';
import { DEFAULT_RETRY_POLICY, retryKind } from '../../../../core/api/retry.ts';

const status = (s: number) =>
  new ApiError({ status: s, errorCode: null, msg: 'x', operationId: undefined });
const rateLimited = new ApiError({
  status: 429,
  errorCode: 'ERR_SERVICE_226',
  msg: 'rate limit',
  operationId: 'op_1',
});
const dropped = new NetworkError('connection', 'api.example.com', 'UND_ERR_SOCKET', null);
const decide = (method: HttpMethod, error: unknown, transientAttempts = 0) =>
  retryKind(method, error, transientAttempts, DEFAULT_RETRY_POLICY.maxRetries);

describe('retryKind', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'retries a 429 on %s without limit',
    (method) => {
      expect(decide(method, rateLimited)).toBe('rate-limited');
      expect(decide(method, rateLimited, 1_000)).toBe('rate-limited');
    },
  );

  it.each(['GET', 'PUT', 'DELETE'] as const)(
    'retries %s on network errors and 502/503/504, a bounded number of times',
    (method) => {
      for (const error of [dropped, status(502), status(503), status(504)])
        expect(decide(method, error)).toBe('transient');
      expect(decide(method, dropped, DEFAULT_RETRY_POLICY.maxRetries)).toBeNull();
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
    const refusedHeader = new RequestError('x.get', 'UND_ERR_INVALID_ARG', null);
    for (const error of [
      status(400),
      status(404),
      status(500),
      new AbortError('x'),
      refusedHeader,
      new Error(),
    ])
      expect(decide('GET', error)).toBeNull();
  });
});
