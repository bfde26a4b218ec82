import type { z } from 'zod';
import { SshError } from './errors.ts';

/** The parsed input, or an SshError naming the first field that is wrong and why. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? `"${issue.path.join('.')}" ` : '';
  const code = issue?.path.at(-1) === 'name' ? 'invalid-name' : 'invalid-input';
  throw new SshError(code, `${what}: ${field}${issue?.message ?? 'is not valid'}`);
}
