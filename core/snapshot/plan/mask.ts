import { getPath, isSecretValue, secretPaths, withPath } from '../resources/fields.ts';
import type { PlanStep } from './plan.ts';
import { isPlainObject } from '../../../shared/api/errors/validate.ts';

type Json = Record<string, unknown>;

/** What a secret reads as wherever a plan is shown: on a terminal, in JSON, in a log. */
const MASKED = '********';

/** A copy of a resource's fields with every secret the API returns shown as `MASKED`. */
function maskSecrets(fields: Json): Json {
  return secretPaths(fields).reduce(
    (out, path) => (isSecretValue(getPath(out, path)) ? withPath(out, path, MASKED) : out),
    fields,
  );
}

/** A field change's value, masked: `path` is a top-level field or module of the resource. */
function maskedValue(path: string, value: unknown): unknown {
  return isPlainObject(value) ? maskSecrets({ [path]: value })[path] : value;
}

/**
 * A step as it may be shown: secrets in a create's fields, an update's changes and its writes
 * masked. Steps carry a snapshot's secrets (`--with-secrets`); what shows a plan shows this.
 */
export function maskStep(step: PlanStep): PlanStep {
  if (step.action === 'create') return { ...step, fields: maskSecrets(step.fields) };
  if (step.action !== 'update') return step;
  return {
    ...step,
    changes: step.changes.map((c) => ({
      path: c.path,
      from: maskedValue(c.path, c.from),
      to: maskedValue(c.path, c.to),
    })),
    patch: maskSecrets(step.patch),
    modules: step.modules.map(({ module, value }) => ({
      module,
      value: value === null ? null : (maskedValue(module, value) as Json),
    })),
  };
}
