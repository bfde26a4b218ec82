import { z } from 'zod';
import type { Endpoint } from './endpoint-builders.ts';
import {
  isPlainObject,
  validateBody,
  validationFailure,
  type Validated,
} from '../errors/validate.ts';

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

type Body = Record<string, unknown>;

/**
 * `body` without its copies of the path parameters `names`, or 215 naming the first copy that is
 * not the path's value as a string.
 */
function withoutCopies(
  names: readonly string[],
  params: Readonly<Record<string, string>>,
  body: Body,
): Validated<Body> {
  const rest: Body = { ...body };
  for (const name of names.filter((n) => Object.hasOwn(body, n))) {
    if (rest[name] !== params[name])
      return validationFailure(
        'invalidValue',
        name,
        `"${name}" must be the path's ${name}, "${params[name] ?? ''}", when the body repeats it`,
      );
    delete rest[name];
  }
  return { ok: true, value: rest };
}

/** The key the official TypeScript client wraps a module replace's fields in. */
export const MODULE_KEY = 'module';
const wrappedSchemas = new WeakMap<z.ZodType, z.ZodType<{ module: unknown }>>();

/**
 * A module replace (PUT) as the official TypeScript client sends it, `{"edge_id": …, "id": …,
 * "module": {…}}`: the path ids, each equal to the path's, beside the module's fields wrapped in
 * `module`. The module is checked where it stands, so an error names `module.issuer`.
 */
function unwrappedModule(
  endpoint: Endpoint & { body: z.ZodType },
  params: Readonly<Record<string, string>>,
  body: Body,
): Validated<unknown> {
  const echoFree = withoutCopies(Object.keys(endpoint.pathParams), params, body);
  if (!echoFree.ok) return echoFree;
  const beside = Object.keys(echoFree.value).find((key) => key !== MODULE_KEY);
  if (beside !== undefined)
    return validationFailure(
      'unknownField',
      beside,
      `unknown field "${beside}" beside "${MODULE_KEY}": send the module's fields either inside "${MODULE_KEY}" or alone, not both`,
    );
  if (!isPlainObject(echoFree.value[MODULE_KEY]))
    return validationFailure(
      'invalidValue',
      MODULE_KEY,
      `"${MODULE_KEY}" must be an object holding the module's fields`,
    );
  let schema = wrappedSchemas.get(endpoint.body);
  if (!schema) {
    schema = z.strictObject({ [MODULE_KEY]: endpoint.body }) as z.ZodType<{ module: unknown }>;
    wrappedSchemas.set(endpoint.body, schema);
  }
  const checked = validateBody(schema, echoFree.value);
  return checked.ok ? { ok: true, value: checked.value.module } : checked;
}

/**
 * A request's body as the endpoint takes it, checked: the path ids it echoes taken out (each
 * must equal the path's), a module replace's wrapped form unwrapped, then the endpoint's schema.
 * The first problem is the API's error naming the field.
 */
export function checkedRequestBody(
  endpoint: Endpoint & { body: z.ZodType },
  params: Readonly<Record<string, string>>,
  body: unknown,
): Validated<unknown> {
  // Anything but a plain object goes on for the body check to refuse (213).
  if (!isPlainObject(body)) return validateBody(endpoint.body, body);
  if (endpoint.method === 'PUT' && Object.hasOwn(body, MODULE_KEY))
    return unwrappedModule(endpoint, params, body);
  const echoFree = withoutCopies(echoedPathParams(endpoint), params, body);
  return echoFree.ok ? validateBody(endpoint.body, echoFree.value) : echoFree;
}
