import type { CommandSpec, OptionSpecs, Options, Values } from './args.ts';
import type { Io } from './io.ts';

export type RunContext<O extends OptionSpecs> = {
  readonly args: readonly string[];
  /** The command's own options. */
  readonly values: Values<O>;
  /** The global options; the command sets its own fields before handing them on. */
  readonly options: Options;
  readonly io: Io;
  /** Every command, as the command line knows them (for `burrow completion`). */
  readonly commands: Readonly<Record<string, Command>>;
};

/**
 * A command as its file declares it (cli/commands/<name>.ts; the file's name is the command's):
 * what it does, its arguments and options with their help, examples, and what it runs.
 */
export type Command<O extends OptionSpecs = OptionSpecs> = CommandSpec<O> & {
  readonly examples: readonly string[];
  /** Exit code: 0 ok, 1 an error, 2 `plan` found changes. */
  run(context: RunContext<O>): Promise<number>;
};

/** `--yes`, the same for every command that asks before it acts. */
export const YES_OPTION = { type: 'boolean', short: 'y', help: 'do not ask first' } as const;

/** Types `run`'s values from the declared options. */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}
