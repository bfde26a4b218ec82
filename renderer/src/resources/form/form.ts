import { endpoint, type EndpointName } from '../../../../shared/api/catalog/endpoints.ts';
import { bodyProblems } from '../../../../shared/api/errors/validate.ts';
import type { IpcError } from '../../../../shared/app/ipc/contract.ts';
import type { Field, Item } from '../kinds/kind-shape.ts';
import { midSentence } from '../../lib/words.ts';

/** A form's values, keyed by field name, in the shape each input edits. */
export type Values = Record<string, unknown>;

function empty(field: Field): unknown {
  // A required list starts with its first entry to type in, not with an "Add" to press first.
  if (field.type === 'lines') return field.required ? [''] : [];
  if (field.type === 'refs') return [];
  if (field.type === 'map') return {};
  // A select starts on its placeholder: the first option is never chosen for the person.
  if (field.type === 'select' || field.type === 'ref') return '';
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
      const was = toBody(field, item[field.name] ?? empty(field));
      if (JSON.stringify(value) !== JSON.stringify(was)) body[field.name] = value;
    } else if (!isBlank(value) || field.required) body[field.name] = value;
  }
  return body;
}

/** What is wrong with one field: `index` is the entry of a list it is about (`hostports[0]`). */
export type Problem = { readonly message: string; readonly index?: number };

/** A form's problems: each beside its field, and those that name none. */
export type Problems = {
  readonly fields: Readonly<Record<string, Problem>>;
  readonly general: readonly string[];
};

export const NO_PROBLEMS: Problems = { fields: {}, general: [] };

const SEGMENT = /([A-Za-z_][\w-]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;

/** `provider.github.teams[0]` as segments, the way the API's errors write a field. */
export function pathOf(field: string): PropertyKey[] {
  return [...field.matchAll(SEGMENT)].map(([, name, index, quoted]) =>
    index !== undefined ? Number(index) : (name ?? JSON.parse(`"${quoted ?? ''}"`)),
  );
}

/**
 * The field of the form a path is about, and the entry of it: the deepest segment naming a
 * shown field, so `provider.github.teams[0]` lands on Teams (OAuth nests what the form shows
 * flat) and `hostports[0]` on the first Hostport.
 */
export function placeOf(
  fields: readonly Field[],
  path: readonly PropertyKey[],
): { field: Field; index?: number } | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const field = fields.find((f) => f.name === path[i]);
    if (!field) continue;
    const next = path[i + 1];
    return typeof next === 'number' ? { field, index: next } : { field };
  }
  return undefined;
}

const labelOf = (field: Field, index?: number) =>
  index === undefined ? field.label : `${field.label} ${index + 1}`;

/**
 * The API's words for fields (`"client_id"`, `"tls_termination.terminate_at"`) in the form's own
 * (Client id, Terminate at), where the form has the field.
 */
export function inFormWords(rule: string, fields: readonly Field[]): string {
  return rule.replace(/"([A-Za-z_][\w.-]*)"/g, (quoted, path: string) => {
    const field = fields.find((f) => f.name === path.split('.').pop());
    return field ? field.label : quoted;
  });
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const REQUIRED = 'is required';

/** What a required field left empty says: a list of picks is chosen, not filled in. */
const requiredOf = (field: Field, index?: number) =>
  field.type === 'refs'
    ? `Choose one or more ${midSentence(field.label)}`
    : `${labelOf(field, index)} ${REQUIRED}`;

/** "Error threshold must be …": a field's label and the rule it breaks, in the form's words. */
function ruleOf(field: Field, index: number | undefined, rule: string, fields: readonly Field[]) {
  const message =
    rule === REQUIRED
      ? requiredOf(field, index)
      : `${labelOf(field, index)} ${field.rule || inFormWords(rule, fields)}`;
  return { message, ...(index !== undefined && { index }) };
}

/**
 * Everything wrong with a form at once, before any call: required fields left empty, list
 * entries their own check refuses, then the endpoint's schema on the body (`shape`d as sent).
 * The first problem of a field is the one shown; what names no field is general.
 */
export function problemsOf(
  fields: readonly Field[],
  values: Values,
  name: string,
  body: Values,
): Problems {
  const shown = fields.filter((f) => f.when?.(values) ?? true);
  const found: Record<string, Problem> = {};
  const general: string[] = [];
  for (const field of shown) {
    const value = toBody(field, values[field.name]);
    if (field.required && isBlank(value)) {
      found[field.name] = { message: requiredOf(field) };
      continue;
    }
    if (field.type !== 'lines' || !field.check) continue;
    for (const [index, line] of (values[field.name] as string[]).entries()) {
      const rule = line === '' ? undefined : field.check(line);
      if (!rule) continue;
      found[field.name] = ruleOf(field, index, rule, shown);
      break;
    }
  }
  const schema = endpoint(name as EndpointName).body;
  for (const { path, rule } of schema ? bodyProblems(schema, body) : []) {
    const place = placeOf(shown, path);
    if (!place) general.push(sentence(inFormWords(rule, shown)));
    else found[place.field.name] ??= ruleOf(place.field, place.index, rule, shown);
  }
  return { fields: found, general: [...new Set(general)] };
}

/**
 * A refusal from core or the API, beside the field it names when the form shows that field:
 * `"hostports[0]" must be …` becomes "Hostport 1 must be …".
 */
export function placeRefusal(
  fields: readonly Field[],
  values: Values,
  refusal: IpcError,
): { name: string; problem: Problem } | undefined {
  if (!refusal.field) return undefined;
  const shown = fields.filter((f) => f.when?.(values) ?? true);
  const place = placeOf(shown, pathOf(refusal.field));
  if (!place) return undefined;
  const { field, index } = place;
  // The API starts with the field it names, quoted or not: the label takes its place.
  const subject = [`"${refusal.field}" `, `${refusal.field} `].find((s) =>
    refusal.message.startsWith(s),
  );
  const rule = subject
    ? refusal.message.slice(subject.length)
    : /^missing required \w+ /.test(refusal.message)
      ? REQUIRED
      : undefined;
  const problem = rule
    ? ruleOf(field, index, rule, shown)
    : { message: inFormWords(refusal.message, shown), ...(index !== undefined && { index }) };
  return { name: field.name, problem };
}
