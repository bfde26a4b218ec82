import type { z } from 'zod';
import { ID_PREFIXES, type IdKind } from '../../../shared/api/values/ids.ts';
import { swapRefs } from '../resources/fields.ts';
import { KINDS } from '../resources/kinds.ts';
import type { Blocker, PlanStep } from './steps.ts';

type Json = Record<string, unknown>;

/** A well-formed id of the kind a local name is of, so that the write schemas can check the rest. */
function standIn(name: string): string {
  const kind = name.split('/')[0] as IdKind;
  return `${ID_PREFIXES[kind] ?? 'x_'}snapshot`;
}

function issues(schema: z.ZodType, value: Json, name: string, prefix = ''): Blocker[] {
  const result = schema.safeParse(swapRefs(value, standIn));
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    name,
    field: [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.'),
    reason: issue.message,
  }));
}

/**
 * What the API would refuse in a step's bodies, found before any call: a snapshot edited by hand
 * names its bad field here, not halfway through an apply.
 */
export function invalidFields(step: PlanStep): Blocker[] {
  const info = KINDS[step.kind];
  if (step.action === 'create') return issues(info.create, step.fields, step.name);
  if (step.action !== 'update') return [];
  const patch =
    Object.keys(step.patch).length > 0 ? issues(info.update, step.patch, step.name) : [];
  return [
    ...patch,
    ...step.modules.flatMap(({ module, value }) => {
      const forms = info.modules[module];
      return value === null || forms === undefined
        ? []
        : issues(forms.write, value, step.name, module);
    }),
  ];
}
