import { endpoint, type EndpointName } from '../../../shared/api/endpoints.ts';
import { validateBody } from '../../../shared/api/validate.ts';
import type { Field, Item } from './kind.ts';

/** A form's values, keyed by field name, in the shape each input edits. */
export type Values = Record<string, unknown>;

function empty(field: Field): unknown {
  if (field.type === 'lines' || field.type === 'refs') return [];
  if (field.type === 'map') return {};
  if (field.type === 'select') return field.options[0];
  if (field.type === 'ref') return '';
  if (field.type === 'boolean') return true;
  return '';
}

/** A reference as representations hold it ({ id, uri }) becomes the id a body takes. */
function asWritten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asWritten);
  if (typeof value === 'object' && value !== null && 'id' in value) return value.id;
  return value;
}

export function initialValues(fields: readonly Field[], item?: Item): Values {
  return Object.fromEntries(
    fields.map((f) => {
      const read = item?.[f.read ?? f.name];
      return [f.name, structuredClone(asWritten(read ?? empty(f)))];
    }),
  );
}

function isBlank(value: unknown): boolean {
  if (value === '' || value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function toBody(field: Field, value: unknown): unknown {
  const numeric = field.type === 'number' || (field.type === 'select' && field.numeric);
  if (numeric) return value === '' || value === undefined ? undefined : Number(value);
  if (field.type === 'lines') return (value as string[]).filter((line) => line !== '');
  return value;
}

/**
 * The body to send. A create leaves out what was not filled in, so the API's defaults apply; an
 * edit sends only what changed, so an untouched field is never rewritten.
 */
export function bodyOf(fields: readonly Field[], values: Values, item?: Item): Values {
  const body: Values = {};
  for (const field of fields.filter((f) => f.when?.(values) ?? true)) {
    const value = toBody(field, values[field.name]);
    if (item) {
      if (JSON.stringify(value) !== JSON.stringify(item[field.name] ?? empty(field)))
        body[field.name] = value;
    } else if (!isBlank(value) || field.required) body[field.name] = value;
  }
  return body;
}

/** The field a problem is about: `acl[2]` and `backend.backend_id` belong to `acl` and `backend`. */
export function fieldOf(path: string | undefined): string | undefined {
  return path?.match(/^[^.[]+/)?.[0];
}

/**
 * The person's early feedback: a body checked with the endpoint's own schema and the API's error
 * mapping, so a problem is named here, beside its field, before any call is made. The dispatcher
 * checks what arrives with the same two, as the boundary.
 */
export function check(name: string, body: Values): { field?: string; message: string } | undefined {
  const schema = endpoint(name as EndpointName).body;
  if (!schema) return undefined;
  const result = validateBody(schema, body);
  if (result.ok) return undefined;
  const field = fieldOf(result.error.field);
  return { ...(field && { field }), message: result.error.msg };
}
