import type { Endpoint } from '../../shared/api/catalog/endpoint-builders.ts';
import type { ErrorName } from '../../shared/api/errors/errors.ts';
import { TunnelSessionCommand } from '../../shared/api/kinds/tunnel-sessions.ts';
import { SERVICE_VERSION_HEADER, SUPPORTED_VERSIONS } from '../../shared/api/catalog/version.ts';
import type { Caller, Store } from '../store/store.ts';
import { SandboxApiError } from './sandbox-api-error.ts';

const BEARER = /^Bearer +(\S+) *$/i;

/** 200 no header, 201 not `Bearer <key>`, 206 an agent authtoken, 203 any other unknown key. */
export function authenticate(header: string | undefined, store: Store): Caller | SandboxApiError {
  if (header === undefined || header === '')
    return new SandboxApiError(
      'noAuthorization',
      'no Authorization header: send "Authorization: Bearer <API key>"',
    );
  const key = BEARER.exec(header)?.[1];
  if (key === undefined)
    return new SandboxApiError(
      'malformedAuthorization',
      'the Authorization header must be "Bearer <API key>"',
    );
  const caller = store.callerByApiKey(key);
  if (caller) return caller;
  if (store.isAgentToken(key))
    return new SandboxApiError(
      'authtokenAsApiKey',
      'this is an agent authtoken (a tunnel credential), not an API key',
    );
  return new SandboxApiError('unknownApiKey', 'the API key is unknown or has been revoked');
}

/** 218 without the version header, 217 with a version this server does not serve. */
export function checkVersion(header: string | undefined): SandboxApiError | undefined {
  const supported = SUPPORTED_VERSIONS.join(', ');
  if (header === undefined || header.trim() === '')
    return new SandboxApiError(
      'missingVersion',
      `the request does not specify an API version: set the ${SERVICE_VERSION_HEADER} header; supported versions: ${supported}`,
    );
  if (!SUPPORTED_VERSIONS.includes(header.trim()))
    return new SandboxApiError(
      'unsupportedVersion',
      `${SERVICE_VERSION_HEADER} "${header.trim()}" is not supported; supported versions: ${supported}`,
    );
  return undefined;
}

/** Whether the request carries a body, judged from its framing headers alone. */
export function hasBody(headers: {
  'content-length'?: string | undefined;
  'transfer-encoding'?: string | undefined;
}): boolean {
  const length = headers['content-length'];
  return (
    (length !== undefined && length.trim() !== '0') || headers['transfer-encoding'] !== undefined
  );
}

/**
 * Whether the operation's body may be left out, reading as `{}`: the session commands, whose body
 * is the empty object. Generated clients send a command as a POST with no body at all.
 */
export function bodyMayBeLeftOut(endpoint: Endpoint): boolean {
  return endpoint.body === TunnelSessionCommand;
}

/**
 * 216 without a Content-Type, 210 with anything but `application/json` (parameters allowed,
 * except a charset other than UTF-8, the only encoding of JSON).
 */
export function contentTypeProblem(header: string | undefined): ErrorName | undefined {
  if (header === undefined || header.trim() === '') return 'missingContentType';
  const [type = '', ...params] = header.split(';').map((s) => s.trim());
  if (type.toLowerCase() !== 'application/json') return 'unsupportedContentType';
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((s) => s.trim());
    if (name.toLowerCase() === 'charset' && value.replace(/^"|"$/g, '').toLowerCase() !== 'utf-8')
      return 'unsupportedContentType';
  }
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as JSON: 213 unless it is UTF-8 holding one JSON value. */
export function parseJsonBody(raw: unknown): unknown {
  if (!(raw instanceof Uint8Array) || raw.length === 0)
    throw new SandboxApiError('invalidJsonBody', 'the body must be a JSON object');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new SandboxApiError('invalidJsonBody', 'the body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SandboxApiError(
      'invalidJsonBody',
      `the body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/**
 * The query parameters, a repeated one collapsed to its first value. The object has no
 * prototype, so that `__proto__` and friends are ordinary (unknown) names.
 */
export function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(search))
    if (!Object.hasOwn(query, name)) query[name] = value;
  return query;
}
