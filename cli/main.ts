import { parseCommandLine } from './args.ts';
import type { Command } from './command.ts';
import * as registry from './commands/index.ts';
import { commandHelp, overview } from './help.ts';
import { failureLines, type Io } from './io.ts';

const COMMANDS: Readonly<Record<string, Command>> = registry;

/**
 * `burrow COMMAND …`: the same profiles, keychain and core as the app. Returns the exit code: 0
 * ok, 1 an error (one line on stderr), 2 a plan with changes.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const invocation = parseCommandLine(argv, COMMANDS);
    if (invocation.help) {
      const { command } = invocation;
      io.stdout.write(
        command === undefined ? overview(COMMANDS) : commandHelp(command.name, command.spec),
      );
      return 0;
    }
    const { command, args, values, options } = invocation;
    return await command.spec.run({ args, values, options, io, commands: COMMANDS });
  } catch (error) {
    io.stderr.write(
      failureLines(error)
        .map((line) => `burrow: ${line}\n`)
        .join(''),
    );
    return 1;
  }
}
