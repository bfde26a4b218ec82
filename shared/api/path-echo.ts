import type { Endpoint } from './endpoints.ts';
import { validationFailure, type Validated } from './validate.ts';

/**
 * The path parameters a body may repeat. The real service's official client libraries send them
 * in the body of every update (PATCH) and of a create under a parent (a route's `edge_id`); the
 * service takes such a copy when it equals the path, so the sandbox does too.
 */
export function echoedPathParams(endpoint: Endpoint): readonly string[] {
  if (endpoint.body === null) return [];
  return endpoint.method === 'PATCH' || endpoint.status === 201
    ? Object.keys(endpoint.pathParams)
    : [];
}

/**
 * The body without the path parameters it echoes, or 215 naming the first copy that is not the
 * path's value as a string. Anything but a plain object is passed on for the body check to refuse.
 */
export function withoutEchoedParams(
  endpoint: Endpoint,
  params: Readonly<Record<string, string>>,
  body: unknown,
): Validated<unknown> {
  const echoed = echoedPathParams(endpoint);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: true, value: body };
  const present = echoed.filter((name) => Object.hasOwn(body, name));
  if (present.length === 0) return { ok: true, value: body };
  const rest: Record<string, unknown> = { ...body };
  for (const name of present) {
    const value = rest[name];
    if (value !== params[name])
      return validationFailure(
        'invalidValue',
        name,
        `"${name}" must be the path's ${name}, "${params[name] ?? ''}", when the body repeats it`,
      );
    delete rest[name];
  }
  return { ok: true, value: rest };
}
