import { describe, expect, it } from 'vitest';
import {
  ApiError,
  apiErrorFromResponse,
  ClientError,
  NetworkError,
} from '../../../../core/api/errors.ts';
import { errorBody } from '../../shared/api/fixtures.ts';

describe('apiErrorFromResponse', () => {
  it('reads the service error body, code, operation id and details', () => {
    const body = errorBody('notFound', 'IP policy not found', { operation_id: 'op_abc', extra: 1 });
    const error = apiErrorFromResponse(404, body, 'op_header');
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 404,
      errorCode: 'ERR_SERVICE_301',
      errorName: 'notFound',
      msg: 'IP policy not found',
      operationId: 'op_abc',
      details: { operation_id: 'op_abc', extra: 1 },
      message: 'IP policy not found (ERR_SERVICE_301, op_abc)',
    });
  });

  it('names the field a validation error is about', () => {
    const body = errorBody('invalidValue', 'invalid value', {
      operation_id: 'op_v',
      field: 'description',
    });
    expect(apiErrorFromResponse(400, body, undefined)).toMatchObject({
      status: 400,
      errorCode: 'ERR_SERVICE_215',
      msg: 'invalid value',
      operationId: 'op_v',
      field: 'description',
    });
    expect(apiErrorFromResponse(502, undefined, 'op_h').field).toBeUndefined();
  });

  it('words a body that is no error body from the status', () => {
    const error = apiErrorFromResponse(502, undefined, 'op_h');
    expect(error.message).toBe('Bad Gateway (HTTP 502, op_h)');
    expect(error.errorCode).toBeNull();
    expect(error.errorName).toBeUndefined();
    expect(apiErrorFromResponse(599, { nope: true }, undefined).message).toBe(
      'HTTP status 599 (HTTP 599)',
    );
  });

  it('knows a rate limit', () => {
    const body = errorBody('rateLimited', 'Rate limited');
    expect(apiErrorFromResponse(429, body, undefined).isRateLimit).toBe(true);
    expect(apiErrorFromResponse(400, { ...body, status_code: 400 }, undefined).isRateLimit).toBe(
      false,
    );
  });
});

describe('NetworkError', () => {
  it('says what happened in words, the low-level code in parentheses', () => {
    expect(
      new NetworkError('timeout', 'api.example.com', 'UND_ERR_HEADERS_TIMEOUT', null).message,
    ).toBe('api.example.com did not answer in time (UND_ERR_HEADERS_TIMEOUT)');
    expect(new NetworkError('connection', 'h', undefined, null).message).toBe(
      'Could not reach h: the connection failed or was dropped',
    );
  });
});
