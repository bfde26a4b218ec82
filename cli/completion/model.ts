import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from '../args.ts';

/** What an option's value completes to. */
export type ValueKind =
  | { readonly kind: 'flag' }
  | { readonly kind: 'profile' }
  | { readonly kind: 'file' }
  | { readonly kind: 'dir' }
  | { readonly kind: 'choice'; readonly choices: readonly string[] }
  /** A value of its own (a URL, a number): nothing to offer. */
  | { readonly kind: 'text' };

export type CompletedOption = {
  readonly long: string;
  readonly short?: string;
  readonly help: string;
  readonly value: ValueKind;
};

export type CompletedCommand = {
  readonly name: string;
  readonly summary: string;
  readonly options: readonly CompletedOption[];
  /** What each argument completes to: a subcommand, a file, or nothing offered. */
  readonly args: readonly ValueKind[];
};

/** Options naming a profile of the app: completed with `burrow profiles --names`. */
const PROFILE_OPTIONS = new Set(['profile', 'from-profile']);

function valueKind(name: string, spec: OptionSpec): ValueKind {
  if (spec.type === 'boolean') return { kind: 'flag' };
  if (PROFILE_OPTIONS.has(name)) return { kind: 'profile' };
  if (spec.value === 'FILE') return { kind: 'file' };
  if (spec.value === 'DIR') return { kind: 'dir' };
  // `stop|skip`: the value is one of these words.
  if (spec.value !== undefined && /^[a-z]+(\|[a-z]+)+$/.test(spec.value))
    return { kind: 'choice', choices: spec.value.split('|') };
  return { kind: 'text' };
}

function optionsOf(specs: Readonly<Record<string, OptionSpec>>): CompletedOption[] {
  return Object.entries(specs).map(([long, spec]) => ({
    long,
    ...(spec.short !== undefined && { short: spec.short }),
    help: spec.help,
    value: valueKind(long, spec),
  }));
}

function argumentKind(spec: CommandSpec, index: number, name: string): ValueKind {
  if (index === 0 && spec.subcommands !== undefined)
    return { kind: 'choice', choices: spec.subcommands };
  return { kind: name.includes('FILE') ? 'file' : 'text' };
}

/** The commands as the completion scripts offer them, from their declarations. */
export type CompletionModel = {
  readonly commands: readonly CompletedCommand[];
  readonly global: readonly CompletedOption[];
};

export function completionModel(commands: Readonly<Record<string, CommandSpec>>): CompletionModel {
  return {
    commands: Object.entries(commands).map(([name, spec]) => ({
      name,
      summary: spec.summary,
      options: optionsOf(spec.options),
      args: spec.args.map((arg, i) => argumentKind(spec, i, arg)),
    })),
    global: optionsOf(GLOBAL_OPTIONS),
  };
}

/** Every option of every command that takes a value, each once (a name means one thing). */
export function valueOptions(model: CompletionModel): CompletedOption[] {
  const all = [...model.global, ...model.commands.flatMap((c) => c.options)];
  const byName = new Map(all.filter((o) => o.value.kind !== 'flag').map((o) => [o.long, o]));
  return [...byName.values()];
}

/** What `burrow` runs to list the profiles' names for completion. */
export const PROFILE_NAMES_COMMAND = 'burrow profiles --names 2>/dev/null';
