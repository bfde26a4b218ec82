import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { VALUE_LABELS, valueLabel } from '../../../../../shared/api/words/value-labels.ts';

/** Every module of the API model, as its exports. */
const MODEL = path.resolve(import.meta.dirname, '../../../../../shared/api');
const api: unknown[] = await Promise.all(
  readdirSync(MODEL, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => import(pathToFileURL(path.join(MODEL, file)).href) as Promise<unknown>),
);

type Def = { type: string } & Record<string, unknown>;
type Schema = { _zod: { def: Def } };
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && '_zod' in v;

/**
 * Every enumerated value of the model with the field that holds it (a schema exported on its
 * own, outside any object, under `''`): the enums, and literals that allow more than one value.
 */
function enumeratedValues(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const seen = new Map<Schema, Set<string>>();
  const note = (field: string, values: readonly unknown[]) => {
    const set = found.get(field) ?? new Set<string>();
    for (const v of values) set.add(String(v));
    found.set(field, set);
  };
  const walk = (s: unknown, field: string): void => {
    if (!isSchema(s)) return;
    const fields = seen.get(s) ?? new Set<string>();
    if (fields.has(field)) return;
    seen.set(s, fields.add(field));
    const d = s._zod.def;
    const each = (list: unknown) => {
      for (const x of list as unknown[]) walk(x, field);
    };
    switch (d.type) {
      case 'enum':
        return note(field, Object.values(d['entries'] as object));
      case 'literal':
        if ((d['values'] as unknown[]).length > 1) note(field, d['values'] as unknown[]);
        return;
      case 'object':
        for (const [k, v] of Object.entries(d['shape'] as object)) walk(v, k);
        return walk(d['catchall'], field);
      case 'pipe':
        return each([d['in'], d['out']]);
      case 'array':
        return walk(d['element'], field);
      case 'union':
        return each(d['options']);
      case 'intersection':
        return each([d['left'], d['right']]);
      case 'record':
        return each([d['keyType'], d['valueType']]);
      case 'tuple':
        return each([...(d['items'] as unknown[]), d['rest']]);
      case 'lazy':
        return walk((d['getter'] as () => unknown)(), field);
      default:
        return walk(d['innerType'], field);
    }
  };
  const visit = (v: unknown, depth: number): void => {
    if (isSchema(v)) return walk(v, '');
    if (depth < 6 && typeof v === 'object' && v !== null)
      for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(api, 0);
  return found;
}

it('has words for every enumerated value of the API model, by the field that holds it', () => {
  const found = enumeratedValues();
  // The walk reaches the enums this table was written for: it is not vacuous.
  expect(found.get('match_type')).toContain('exact_path');
  expect(found.get('status')).toContain('PARTIALLY_PROCESSED');
  const unlabelled: string[] = [];
  const anywhere = (value: string) =>
    Object.values(VALUE_LABELS).some((labels) => labels[value] !== undefined);
  for (const [field, values] of found)
    for (const value of values) {
      const labelled = field === '' ? anywhere(value) : VALUE_LABELS[field]?.[value] !== undefined;
      if (!labelled) unlabelled.push(`${field || '(a schema of its own)'}: ${value}`);
    }
  expect(unlabelled).toEqual([]);
});

it('reads the values people met raw', () => {
  expect(valueLabel('match_type', 'exact_path')).toBe('Exact path');
  expect(valueLabel('provider', 'autodesk_forge')).toBe('Autodesk Forge');
  expect(valueLabel('status', 'PARTIALLY_PROCESSED')).toBe('Partly processed');
  expect(valueLabel('status', 'IGNORE')).toBe('Ignored');
  expect(valueLabel('key_size', 4096)).toBe('4096 bits');
});

it('leaves a value it has no words for as it is', () => {
  expect(valueLabel('status', 'NEW_STATE')).toBe('NEW_STATE');
  expect(valueLabel('description', 'a route')).toBe('a route');
});
