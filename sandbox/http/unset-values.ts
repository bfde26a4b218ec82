import type { z } from 'zod';
import type { Endpoint } from '../../shared/api/catalog/endpoint-builders.ts';
import { MODULE_KEY } from '../../shared/api/catalog/path-echo.ts';
import { isPlainObject } from '../../shared/api/errors/validate.ts';

/*
 * How other clients write "not set", read as not set. Generated clients send the zero value of
 * every input left unset ("" for a string, 0 for a number, [] for a list, {} for a map), as the
 * platform's own, whose definition leaves such fields out when zero; and a client that writes
 * back what it read sends null where the representation shows an unset member. Both are taken
 * out of a body before it is checked, wherever they cannot mean anything else.
 */

type Schema = z.core.$ZodType;
type Shape = Readonly<Record<string, Schema>>;

/** The schema a value is checked against, under optional, nullable, default and pipe. */
function bare(schema: Schema): Schema {
  const def = schema._zod.def as { type: string; innerType?: Schema; in?: Schema };
  const inner = def.type === 'pipe' ? def.in : def.innerType;
  return inner === undefined ? schema : bare(inner);
}

function shapeOf(schema: Schema | undefined): Shape | undefined {
  const def = schema && (bare(schema)._zod.def as { type: string; shape?: Shape });
  return def?.type === 'object' ? def.shape : undefined;
}

const isEmptyMap = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0;

/** Whether `value` is the zero value of the type `schema` checks (strings, numbers, lists, maps). */
function isZeroOf(schema: Schema, value: unknown): boolean {
  const def = bare(schema)._zod.def as {
    type: string;
    values?: readonly unknown[];
    entries?: Readonly<Record<string, unknown>>;
  };
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return value === '';
    case 'number':
      return value === 0;
    case 'enum':
    case 'literal': {
      const [first] = def.values ?? Object.values(def.entries ?? {});
      return value === (typeof first === 'number' ? 0 : '');
    }
    case 'array':
      return Array.isArray(value) && value.length === 0;
    case 'record':
      return isEmptyMap(value);
    default:
      return false;
  }
}

/**
 * Whether the member `value` of a request, checked by `field` (undefined: the request form has
 * no such member) where the representation's member is `shown`, reads as left out:
 * - a zero value of a field that may be left out, when the field refuses it (it can mean
 *   nothing else) or has a default of its own (which a client leaving it out asks for);
 * - null where the representation shows null for unset, when the request form does not take it.
 * A zero the field takes and that is no default (an empty description, an empty ACL) stands.
 */
function readsAsUnset(
  field: Schema | undefined,
  shown: Schema | undefined,
  value: unknown,
): boolean {
  if (value === null)
    return (
      shown !== undefined && accepts(shown, null) && (field === undefined || !accepts(field, null))
    );
  if (field === undefined || !isZeroOf(field, value)) return false;
  const absent = safeParse(field, undefined);
  return absent.success && (absent.data !== undefined || !accepts(field, value));
}

function safeParse(schema: Schema, value: unknown): { success: boolean; data?: unknown } {
  return (schema as z.ZodType).safeParse(value);
}

function accepts(schema: Schema, value: unknown): boolean {
  return safeParse(schema, value).success;
}

/** `body` without its members that read as unset, at every depth the request form names. */
function withoutUnset(write: Schema, read: Schema | undefined, body: unknown): unknown {
  const fields = shapeOf(write);
  if (fields === undefined || !isPlainObject(body)) return body;
  const shown = shapeOf(read) ?? {};
  const member = (shape: Shape, key: string) =>
    Object.hasOwn(shape, key) ? shape[key] : undefined;
  // fromEntries, not assignment: a "__proto__" member stays a member.
  return Object.fromEntries(
    Object.entries(body)
      .filter(([key, value]) => !readsAsUnset(member(fields, key), member(shown, key), value))
      .map(([key, value]) => {
        const field = member(fields, key);
        return [key, field === undefined ? value : withoutUnset(field, member(shown, key), value)];
      }),
  );
}

/**
 * The body as the endpoint reads it: members that only say "unset" taken out (a module replace's
 * wrapped form inside its `module`), the rest left for the body check.
 */
export function unsetValuesOut(endpoint: Endpoint & { body: z.ZodType }, body: unknown): unknown {
  const read = endpoint.response ?? undefined;
  if (endpoint.method === 'PUT' && isPlainObject(body) && isPlainObject(body[MODULE_KEY]))
    return { ...body, [MODULE_KEY]: withoutUnset(endpoint.body, read, body[MODULE_KEY]) };
  return withoutUnset(endpoint.body, read, body);
}
