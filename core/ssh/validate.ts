import path from 'node:path';
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
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  const code = issue?.path.at(-1) === 'name' ? 'invalid-name' : 'invalid-input';
  throw new SshError(
    code,
    `${what}: ${field === undefined ? '' : `"${field}" `}${issue?.message ?? 'is not valid'}`,
    { ...(field !== undefined && { field }) },
  );
}

const SYSTEM_NAMES: Readonly<Partial<Record<NodeJS.Platform, string>>> = {
  darwin: 'macOS',
  linux: 'Linux',
  win32: 'Windows',
};

/**
 * `value` of `field`, refused unless it is absolute on the system Burrow runs on. The shared
 * schemas take a path absolute on any system (the window cannot tell which one it talks to);
 * a Windows path on Linux or macOS is relative there, and path.resolve would put it under the
 * folder Burrow was started from.
 */
export function localPath(value: string, field: string, what: string): string {
  if (path.isAbsolute(value)) return value;
  const system = SYSTEM_NAMES[process.platform] ?? process.platform;
  throw new SshError(
    'invalid-input',
    `${what}: "${field}" must be an absolute path on ${system}; ${value} is not one`,
    { field },
  );
}
