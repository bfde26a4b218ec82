import type { z } from 'zod';
import type { ErrorName } from './errors.ts';

/**
 * A broken rule with its own error code carries the code's name in the zod issue's `params`, so
 * that validate.ts can map it without reading message text. Messages are fragments that follow
 * the field name: `"key_size" <message>`.
 */
export type RuleParams = { readonly error: ErrorName };

/** Options for `.refine()`: the message and the error the failure maps to. */
export function rule(error: ErrorName, message: string): { params: RuleParams; message: string } {
  return { params: { error }, message };
}

/** Adds an issue at `path` (relative to the refined value) from a `.superRefine()`; without `error` it maps to invalidValue. */
export function flag(
  ctx: z.RefinementCtx,
  path: readonly PropertyKey[],
  message: string,
  error?: ErrorName,
): void {
  ctx.addIssue({
    code: 'custom',
    path: [...path],
    message,
    ...(error && { params: { error } satisfies RuleParams }),
  });
}
