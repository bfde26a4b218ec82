import type { z } from 'zod';
import { REFERENCE_FIELDS } from '../../../shared/app/snapshot-document.ts';
import { isPlainObject } from '../../../shared/api/errors/validate.ts';

/*
 * Turning a representation into a snapshot's fields and back: keep what a write form takes,
 * sort keys, and swap references between ids and local names.
 */

type Json = Record<string, unknown>;

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * The part of `value` that the write schema takes: object keys it does not know are dropped at
 * every depth (a SAML module's derived URLs, an OAuth module's read-only providers), so the
 * result can be sent back. Values themselves are kept as read.
 */
export function project(schema: z.ZodType, value: unknown): unknown {
  const def = defOf(schema);
  if (value === null || value === undefined) return value;
  if (def.innerType) return project(def.innerType, value);
  if (def.type === 'pipe' && def.in) return project(def.in, value);
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.map((item) => project(element, item));
  }
  if (def.type === 'object' && def.shape && isPlainObject(value)) {
    const out: Json = {};
    for (const [key, field] of Object.entries(def.shape))
      if (value[key] !== undefined) out[key] = project(field, value[key]);
    return out;
  }
  return value;
}

/** The keys of an object schema (a write form). */
export function keysOf(schema: z.ZodType): string[] {
  return Object.keys(defOf(schema).shape ?? {});
}

/** A copy with object keys sorted at every depth: the same data always serialises the same. */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) return value.map(canonical) as T;
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical(value[key])]),
  ) as T;
}

/** The read form's references → the write form's ids: `backend: {id}` → `backend_id`, and so on. */
export function refsToIds(module: Json): Json {
  const { backend, ip_policies, certificate_authorities, ...rest } = module;
  const id = (ref: unknown) => (isPlainObject(ref) ? ref['id'] : ref);
  return {
    ...rest,
    ...(backend !== undefined && { backend_id: id(backend) }),
    ...(Array.isArray(ip_policies) && { ip_policy_ids: ip_policies.map(id) }),
    ...(Array.isArray(certificate_authorities) && {
      certificate_authority_ids: certificate_authorities.map(id),
    }),
  };
}

/**
 * Every reference in `fields` passed through `swap` (id → name on export, name → id on apply).
 * `swap` throws for a reference it cannot resolve.
 */
export function swapRefs(fields: Json, swap: (ref: string) => string): Json {
  const walk = (value: unknown, key: string): unknown => {
    if ((REFERENCE_FIELDS as readonly string[]).includes(key)) {
      if (typeof value === 'string') return swap(value);
      if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? swap(v) : v));
    }
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
  };
  return walk(fields, '') as Json;
}

/** Where the API returns secrets, as paths inside a route's fields. */
export function secretPaths(fields: Json): string[][] {
  const paths: string[][] = [
    ['oidc', 'client_secret'],
    ['webhook_verification', 'secret'],
  ];
  const oauth = fields['oauth'];
  if (isPlainObject(oauth) && isPlainObject(oauth['provider']))
    for (const name of Object.keys(oauth['provider']))
      paths.push(['oauth', 'provider', name, 'client_secret']);
  return paths;
}

export function getPath(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, key) => (isPlainObject(v) ? v[key] : undefined), value);
}

/** A copy without the value at `path`. */
export function withoutPath(value: Json, path: readonly string[]): Json {
  const [head, ...rest] = path;
  if (head === undefined || !(head in value)) return value;
  const { [head]: inner, ...others } = value;
  if (rest.length === 0) return others;
  return isPlainObject(inner) ? { ...others, [head]: withoutPath(inner, rest) } : value;
}

/** A copy with `leaf` at `path`; unchanged where a value on the way is not an object. */
export function withPath(value: Json, path: readonly string[], leaf: unknown): Json {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (rest.length === 0) return { ...value, [head]: leaf };
  const inner = value[head];
  return isPlainObject(inner) ? { ...value, [head]: withPath(inner, rest, leaf) } : value;
}

/** A secret worth keeping out: a real string, not the "" or null of a module without one. */
export function isSecretValue(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
