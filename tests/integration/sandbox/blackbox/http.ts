import { request, type Dispatcher } from 'undici';
import { expect } from 'vitest';
import type { ErrorSpec } from '../../../../shared/api/errors/errors.ts';

/** A reply as the black-box suites look at it; `body` is the parsed JSON (or the raw text). */
/** A reply body: JSON of any shape, which the tests read as they see fit. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReplyBody = any;

export type Reply = {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  text: string;
  body: ReplyBody;
};

export type RawRequest = {
  method: string;
  /** A path (joined to the base URL) or a full URL. */
  path: string;
  /** An object, or a flat [name, value, name, value…] list to send a header twice. */
  headers?: Record<string, string> | string[];
  body?: string | Uint8Array;
  dispatcher?: Dispatcher;
};

function parse(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sends exactly what it is given: no default headers. */
export async function raw(baseUrl: string, req: RawRequest): Promise<Reply> {
  const url = /^https?:\/\//.test(req.path) ? req.path : `${baseUrl}${req.path}`;
  const res = await request(url, {
    method: req.method as Dispatcher.HttpMethod,
    headers: req.headers ?? {},
    ...(req.body !== undefined && { body: req.body }),
    ...(req.dispatcher && { dispatcher: req.dispatcher }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, body: parse(text) };
}

/** The headers of a well-behaved client, for raw requests that vary one of them. */
export function goodHeaders(apiKey: string, withBody = true): Record<string, string> {
  return {
    authorization: `Bearer ${apiKey}`,
    'service-version': '2',
    ...(withBody && { 'content-type': 'application/json' }),
  };
}

/**
 * What is wrong with an error reply's shape (empty when nothing): the status must equal
 * body.status_code, and the body must be `{error_code, status_code, msg, details.operation_id}`.
 */
export function errorShapeProblems(status: number, body: ReplyBody): string[] {
  const problems: string[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [`body is not a JSON object: ${JSON.stringify(body)?.slice(0, 200)}`];
  if (typeof body.error_code !== 'string' || !/^ERR_SERVICE_\d+$/.test(body.error_code))
    problems.push(`error_code ${JSON.stringify(body.error_code)}`);
  if (body.status_code !== status)
    problems.push(`status_code ${JSON.stringify(body.status_code)} but HTTP ${status}`);
  if (typeof body.msg !== 'string' || body.msg.trim() === '')
    problems.push(`msg ${JSON.stringify(body.msg)}`);
  const opId: unknown = body.details?.operation_id;
  if (typeof opId !== 'string' || !/^op_/.test(opId))
    problems.push(`details.operation_id ${JSON.stringify(opId)}`);
  return problems;
}

type AnyReply = { status: number; body: ReplyBody };

/** Asserts the reply is the error `spec`, in the error shape. */
export function expectError(reply: AnyReply, spec: ErrorSpec, context = ''): void {
  const got = {
    status: reply.status,
    error_code: (reply.body as { error_code?: unknown } | null)?.error_code,
  };
  const msg = (reply.body as { msg?: unknown } | null)?.msg;
  expect(got, `${context} expected ${spec.code} (${spec.condition}); msg: ${String(msg)}`).toEqual({
    status: spec.status,
    error_code: spec.code,
  });
  expect(errorShapeProblems(reply.status, reply.body), `${context} error shape`).toEqual([]);
}

/** Asserts a success status, printing the error body when there is one. */
export function expectStatus(reply: AnyReply, status: number, context = ''): void {
  expect(
    reply.status,
    `${context} expected ${status}; got ${reply.status} ${JSON.stringify(reply.body)?.slice(0, 400)}`,
  ).toBe(status);
}
