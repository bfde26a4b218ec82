import { expect } from 'vitest';
import type { z } from 'zod';
import type { ErrorName } from '../../../../shared/api/errors/errors.ts';
import { validateBody } from '../../../../shared/api/errors/validate.ts';

/** Asserts the body fails with `name` at `field`, and returns the message for further checks. */
export function expectRejected(
  schema: z.ZodType,
  body: unknown,
  name: ErrorName,
  field?: string,
): string {
  const result = validateBody(schema, body);
  if (result.ok)
    throw new Error(`expected ${name} but the body was accepted: ${JSON.stringify(body)}`);
  expect({ name: result.error.name, field: result.error.field }).toEqual({ name, field });
  return result.error.msg;
}

/** Asserts the body is valid and returns the parsed value. */
export function expectAccepted<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = validateBody(schema, body);
  if (!result.ok)
    throw new Error(`expected acceptance but got ${result.error.code}: ${result.error.msg}`);
  return result.value;
}
