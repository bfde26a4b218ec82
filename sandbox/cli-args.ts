import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in how a command was invoked: one line, the usage, exit 2. */
export class UsageError extends Error {}

/** Strict flags only; node's multi-line parse errors become a one-line UsageError. */
export function parseFlags<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: O,
) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
}

/**
 * The options of a command, or the process ends: `--help` prints the usage (exit 0), a
 * UsageError prints `name: message` and the usage (exit 2). Other errors are bugs and propagate.
 */
export async function optionsOrExit<T>(
  name: string,
  usage: string,
  parse: () => T | 'help' | Promise<T | 'help'>,
): Promise<T> {
  let options: T | 'help';
  try {
    options = await parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${name}: ${error.message}`);
    console.error(usage);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(usage);
    process.exit(0);
  }
  return options;
}
