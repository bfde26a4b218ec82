import { expect, it } from 'vitest';
import { endpoint, type EndpointName } from '../../../shared/api/catalog/endpoints.ts';
import { bodyProblems } from '../../../shared/api/errors/validate.ts';
import { KINDS } from '../../../renderer/src/resources/kinds/kind-list.ts';
import type { Field } from '../../../renderer/src/resources/kinds/kind-shape.ts';

/** The forms the window derives from the catalog: each kind's create, each module's replace. */
const FORMS = KINDS.flatMap((kind) => [
  { name: `${kind.group}.create`, fields: kind.create },
  ...(kind.modules ?? []).map((m) => ({
    name: `${kind.group}.${m.name}.replace`,
    fields: m.fields,
  })),
]) satisfies { name: string; fields: readonly Field[] }[];

it('marks every field the API requires as required, so a form never hides one', () => {
  for (const form of FORMS) {
    const schema = form.fields.length > 0 ? endpoint(form.name as EndpointName).body : undefined;
    if (!schema) continue;
    const needed = bodyProblems(schema, {})
      .filter((p) => p.rule === 'is required')
      .map((p) => String(p.path[0]));
    const marked = form.fields.filter((f) => f.required).map((f) => f.name);
    expect(marked, form.name).toEqual(expect.arrayContaining(needed));
  }
});
