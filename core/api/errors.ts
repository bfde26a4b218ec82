import { STATUS_CODES } from 'node:http';
import { ErrorBody } from '../../shared/api/errors/error-body.ts';
import { ERRORS, type ErrorName } from '../../shared/api/errors/errors.ts';

/**
 * Everything the client throws extends `ClientError`, so a caller can tell the client's failures
 * from its own bugs with one `instanceof`. Every message is meant to be shown to a person as is.
 */
export class ClientError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

const NAME_BY_CODE: ReadonlyMap<string, ErrorName> = new Map(
  (Object.keys(ERRORS) as ErrorName[]).map((name) => [ERRORS[name].code, name]),
);

/** The service answered with an error status. */
export class ApiError extends ClientError {
  /** `ERR_SERVICE_<n>`, or null when the body was no error body (a proxy's HTML page, say). */
  readonly errorCode: string | null;
  /** The key of `ERRORS` for a known code, so callers can branch without comparing strings. */
  readonly errorName: ErrorName | undefined;
  readonly status: number;
  /** The service's own message, or the HTTP reason phrase when there was none. */
  readonly msg: string;
  readonly operationId: string | undefined;
  /** The request field the service named (`details.field` of a validation error), if any. */
  readonly field: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(init: {
    status: number;
    errorCode: string | null;
    msg: string;
    operationId: string | undefined;
    details?: Readonly<Record<string, unknown>>;
  }) {
    const ids = [init.errorCode ?? `HTTP ${init.status}`, init.operationId].filter(Boolean);
    super(`${init.msg} (${ids.join(', ')})`);
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.errorName = init.errorCode === null ? undefined : NAME_BY_CODE.get(init.errorCode);
    this.msg = init.msg;
    this.operationId = init.operationId;
    this.details = init.details ?? {};
    const field = this.details['field'];
    this.field = typeof field === 'string' ? field : undefined;
  }

  get isRateLimit(): boolean {
    return this.status === ERRORS.rateLimited.status;
  }
}

/**
 * The error of an error response. A body that is not the service's error shape still becomes an
 * ApiError, worded from the status, so that a gateway's 502 page reads as well as a real error.
 */
export function apiErrorFromResponse(
  status: number,
  body: unknown,
  headerOperationId: string | undefined,
): ApiError {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) {
    const { error_code, msg, details } = parsed.data;
    return new ApiError({
      status,
      errorCode: error_code,
      msg: msg.trim() === '' ? reasonPhrase(status) : msg,
      operationId: details.operation_id,
      details,
    });
  }
  return new ApiError({
    status,
    errorCode: null,
    msg: reasonPhrase(status),
    operationId: headerOperationId,
  });
}

function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? `HTTP status ${status}`;
}

export type NetworkFailure = 'timeout' | 'connection';

/** No answer came back: the connection failed, was dropped, or the service took too long. */
export class NetworkError extends ClientError {
  readonly failure: NetworkFailure;
  /** The low-level code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT, …) for logs; not for people. */
  readonly code: string | undefined;

  constructor(failure: NetworkFailure, host: string, code: string | undefined, cause: unknown) {
    const what =
      failure === 'timeout'
        ? `${host} did not answer in time`
        : `Could not reach ${host}: the connection failed or was dropped`;
    super(code === undefined ? what : `${what} (${code})`, { cause });
    this.failure = failure;
    this.code = code;
  }
}

/** The caller cancelled the call (its AbortSignal fired), whether it was queued, waiting or in flight. */
export class AbortError extends ClientError {
  constructor(operation: string, cause?: unknown) {
    super(`Cancelled: ${operation}`, { cause });
  }
}

/** A successful response whose body is not what the endpoint answers with. */
export class InvalidResponseError extends ClientError {
  constructor(operation: string, problem: string) {
    super(`Unexpected answer from the service to ${operation}: ${problem}`);
  }
}

/**
 * A path parameter that is no id of the kind the endpoint takes (`..`, `.`, another kind's id):
 * refused before the call takes a slot of the window, since `..` would make another path.
 */
export class InvalidArgumentError extends ClientError {
  readonly operation: string;
  /** The path parameter's name, as the catalog spells it. */
  readonly field: string;

  constructor(operation: string, field: string, problem: string) {
    super(`${operation}: path parameter "${field}" ${problem}`);
    this.operation = operation;
    this.field = field;
  }
}

/** An API key that cannot be sent as it is; the client is not made. */
export class InvalidApiKeyError extends ClientError {}

/**
 * The request failed on this side without a network failure (undici refused it before sending):
 * retrying cannot help, so it is not retried.
 */
export class RequestError extends ClientError {
  /** The low-level code, for logs. */
  readonly code: string;

  constructor(operation: string, code: string, cause: unknown) {
    super(`${operation}: the request could not be sent (${code})`, { cause });
    this.code = code;
  }
}

/** A URL the client refuses to send the API key to. No request is made. */
export class UnsafeUrlError extends ClientError {}
