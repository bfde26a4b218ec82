import { Pool } from 'undici';
import type { HttpMethod } from '../../shared/api/catalog/endpoint-builders.ts';
import { SERVICE_VERSION, SERVICE_VERSION_HEADER } from '../../shared/api/catalog/version.ts';
import {
  AbortError,
  InvalidResponseError,
  NetworkError,
  RequestError,
  UnsafeUrlError,
  type NetworkFailure,
} from './errors.ts';
import { checkBaseUrl } from './origin.ts';

export type TransportOptions = {
  /** Time to open a TCP/TLS connection. */
  readonly connectTimeoutMs?: number;
  /** Time for the response headers, and then between two chunks of its body. */
  readonly responseTimeoutMs?: number;
  /** Keep-alive connections to the service; the rate limit, not sockets, bounds throughput. */
  readonly connections?: number;
};

export type HttpRequest = {
  readonly method: HttpMethod;
  readonly url: URL;
  /** JSON-serialisable; undefined sends no body and no Content-Type. */
  readonly body?: unknown;
  readonly signal?: AbortSignal | undefined;
  /** Names the call in errors ("Cancelled: ipPolicies.list"). */
  readonly operation: string;
};

export type HttpResponse = {
  readonly status: number;
  /** The parsed JSON body, or undefined for a 204 or an empty body. */
  readonly body: unknown;
  readonly operationId: string | undefined;
  readonly retryAfter: string | undefined;
  readonly location: string | undefined;
};

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

/**
 * Only a connection that could not be made, was dropped or timed out is a network failure, which
 * an idempotent call may retry. Any other code (an invalid header, a closed pool) comes from this
 * side and would fail the same way again.
 */
function networkFailure(code: string): NetworkFailure | undefined {
  if (TIMEOUT_CODES.has(code)) return 'timeout';
  return CONNECTION_CODES.has(code) ? 'connection' : undefined;
}

function errorCode(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One keep-alive pool to the profile's origin. The pool is bound to that origin, so whatever a
 * caller asks, the API key can reach no other host; redirects are never followed.
 */
export class Transport {
  readonly base: URL;
  private readonly pool: Pool;
  private readonly headers: Readonly<Record<string, string>>;

  constructor(baseUrl: string, apiKey: string, options: TransportOptions = {}) {
    this.base = checkBaseUrl(baseUrl);
    this.pool = new Pool(this.base.origin, {
      connections: options.connections ?? 6,
      connectTimeout: options.connectTimeoutMs ?? 10_000,
      headersTimeout: options.responseTimeoutMs ?? 30_000,
      bodyTimeout: options.responseTimeoutMs ?? 30_000,
    });
    this.headers = {
      authorization: `Bearer ${apiKey}`,
      [SERVICE_VERSION_HEADER.toLowerCase()]: SERVICE_VERSION,
      accept: 'application/json',
    };
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    if (request.url.origin !== this.base.origin)
      throw new UnsafeUrlError(`Refusing to send the API key to ${request.url.origin}`);
    const hasBody = request.body !== undefined;
    try {
      const response = await this.pool.request({
        method: request.method,
        path: `${request.url.pathname}${request.url.search}`,
        headers: hasBody ? { ...this.headers, 'content-type': 'application/json' } : this.headers,
        body: hasBody ? JSON.stringify(request.body) : null,
        signal: request.signal ?? null,
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        body: parseBody(text, response.statusCode, request.operation),
        operationId: header(response.headers['operation-id']),
        retryAfter: header(response.headers['retry-after']),
        location: header(response.headers['location']),
      };
    } catch (error) {
      if (request.signal?.aborted === true) throw new AbortError(request.operation, error);
      if (error instanceof InvalidResponseError) throw error;
      const code = errorCode(error);
      if (code === undefined) throw error;
      const failure = networkFailure(code);
      if (failure === undefined) throw new RequestError(request.operation, code, error);
      throw new NetworkError(failure, this.base.host, code, error);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Empty bodies (204, or a server that sends none) read as undefined; others must be JSON. */
function parseBody(text: string, status: number, operation: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // An error page that is not JSON still yields an error worded from its status.
    if (status >= 300) return undefined;
    throw new InvalidResponseError(operation, 'the body is not JSON');
  }
}
