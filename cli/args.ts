import { parseArgs } from 'node:util';
import { UsageError } from './io.ts';

/** An option as a command declares it: how it parses, and its line of help. */
export type OptionSpec = {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** What the value stands for in the help: FILE, SECS… */
  readonly value?: string;
  readonly help: string;
};

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** An option's value as a command reads it: a flag is false when not given, a list empty. */
type ValueOf<S extends OptionSpec> = OptionSpec extends S
  ? string | boolean | readonly string[] | undefined
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { multiple: true }
      ? readonly string[]
      : string | undefined;

export type Values<O extends OptionSpecs> = { readonly [K in keyof O]: ValueOf<O[K]> };

/** What the parsing reads of a command's declaration (cli/commands/<name>.ts). */
export type CommandSpec<O extends OptionSpecs = OptionSpecs> = {
  readonly summary: string;
  readonly details?: string;
  readonly args: readonly string[];
  /** The first argument's values, when it names a subcommand. */
  readonly subcommands?: readonly string[];
  /** An option given in the place of the arguments (`plan --from-profile P` has no FILE). */
  readonly argsReplacedBy?: keyof O & string;
  readonly options: O;
  /** What the options' shapes alone do not refuse: the refusal, naming the option. */
  refusal?(values: Values<O>): string | undefined;
};

export const GLOBAL_OPTIONS = {
  profile: {
    type: 'string',
    value: 'NAME',
    help: 'a profile of the app (default: the active one)',
  },
  'api-url': {
    type: 'string',
    value: 'URL',
    help: 'an API address instead, its key in BURROW_API_KEY',
  },
  'data-dir': {
    type: 'string',
    value: 'DIR',
    help: "the app's data folder (default: BURROW_DATA_DIR or the app's)",
  },
  json: { type: 'boolean', help: 'machine-readable output' },
  verbose: { type: 'boolean', help: 'say whether the command ran inside the running app' },
  help: { type: 'boolean', short: 'h', help: 'this help' },
} as const satisfies OptionSpecs;

/**
 * The options as the command modules read them. Each command sets its own fields from its
 * declared options; the others keep the values below.
 */
export type Options = {
  readonly profile?: string;
  readonly apiUrl?: string;
  readonly dataDir?: string;
  readonly json: boolean;
  readonly verbose: boolean;
  readonly output?: string;
  readonly withSecrets: boolean;
  readonly prune: boolean;
  /** `plan`: the profile to plan instead of a file. */
  readonly fromProfile?: string;
  /** `update`: then restart on the new version. */
  readonly restart: boolean;
  readonly yes: boolean;
  readonly watch: boolean;
  /** --watch's poll interval. */
  readonly intervalMs: number;
  readonly ssh: {
    readonly ca?: string;
    readonly principals: readonly string[];
    readonly host: boolean;
    readonly validity?: string;
    readonly keyType?: string;
    readonly dir?: string;
    readonly overwrite: boolean;
  };
};

export type Invocation<C extends CommandSpec> =
  | { readonly help: true; readonly command?: { readonly name: string; readonly spec: C } }
  | {
      readonly help: false;
      readonly command: { readonly name: string; readonly spec: C };
      readonly args: readonly string[];
      /** The command's own options. */
      readonly values: Values<OptionSpecs>;
      /** The global options, the command's own fields as if not given. */
      readonly options: Options;
    };

/** Every command's options and the global ones, for one parse; a name means one thing. */
function allOptions(commands: Readonly<Record<string, CommandSpec>>) {
  const all: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> =
    {};
  const specs = [GLOBAL_OPTIONS, ...Object.values(commands).map((c) => c.options)];
  for (const [name, { type, short, multiple }] of specs.flatMap((s) => Object.entries(s))) {
    const known = all[name];
    if (known !== undefined && (known.type !== type || known.short !== short))
      throw new Error(`--${name} is declared twice, as two different options`);
    all[name] = { type, ...(short !== undefined && { short }), ...(multiple && { multiple }) };
  }
  return all;
}

/** The parsed values of a command's options, absent ones as the command expects them. */
function valuesOf(options: OptionSpecs, parsed: Readonly<Record<string, unknown>>) {
  return Object.fromEntries(
    Object.entries(options).map(([name, spec]) => {
      const value = parsed[name];
      if (spec.type === 'boolean') return [name, value === true];
      return [name, spec.multiple === true ? (value ?? []) : value];
    }),
  ) as Values<OptionSpecs>;
}

/** The options a command starts from before its own options are read. */
export const DEFAULT_OPTIONS: Options = {
  json: false,
  verbose: false,
  withSecrets: false,
  prune: false,
  restart: false,
  yes: false,
  watch: false,
  intervalMs: 5_000,
  ssh: { principals: [], host: false, overwrite: false },
};

function globalOptions(values: Readonly<Record<string, unknown>>): Options {
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  const [profile, apiUrl, dataDir] = [text('profile'), text('api-url'), text('data-dir')];
  return {
    ...DEFAULT_OPTIONS,
    ...(profile !== undefined && { profile }),
    ...(apiUrl !== undefined && { apiUrl }),
    ...(dataDir !== undefined && { dataDir }),
    json: values.json === true,
    verbose: values.verbose === true,
  };
}

function parseFailure(error: unknown, command: string | undefined): UsageError {
  const text = error instanceof Error ? error.message : String(error);
  const option = /'(-[^']*)'/.exec(text)?.[1];
  // Node's "argument is ambiguous": the option's value is missing, or starts with a dash.
  const dashed = /use '(--[^=']+)=/.exec(text)?.[1];
  return new UsageError(
    (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
      ? `unknown option ${option ?? text}`
      : dashed !== undefined
        ? `${option ?? dashed} needs a value (one that starts with "-" is written ${dashed}=-VALUE)`
        : (text.split('\n')[0] ?? text),
    command,
  );
}

/** The arguments against the command's declaration: their count and subcommand. */
function checkArguments(name: string, spec: CommandSpec, args: readonly string[], values: object) {
  const replacedBy = spec.argsReplacedBy;
  const replaced = replacedBy !== undefined && replacedBy in values;
  if (replaced && args.length > 0)
    throw new UsageError(`give ${spec.args.join(' ')} or --${replacedBy}, not both`, name);
  // An argument written [AGENT] may be left out: the command then reads its options instead.
  const required = spec.args.filter((a) => !a.startsWith('[')).length;
  if (!replaced && (args.length < required || args.length > spec.args.length))
    throw new UsageError(
      spec.args.length === 0
        ? `burrow ${name} takes no argument, not "${args.join(' ')}"`
        : `burrow ${name} needs ${spec.args.join(' ')}`,
      name,
    );
  const sub = spec.subcommands;
  if (sub !== undefined && args[0] !== undefined && !sub.includes(args[0]))
    throw new UsageError(`burrow ${name} ${args[0]}: not one of ${sub.join(', ')}`, name);
}

/** The command line, checked: a command, its arguments, and only the options it takes. */
export function parseCommandLine<C extends CommandSpec>(
  argv: readonly string[],
  commands: Readonly<Record<string, C>>,
): Invocation<C> {
  const isCommand = (name: string) => Object.hasOwn(commands, name);
  // Refused by name, not as an unknown option: the person should learn where the key goes.
  if (argv.some((a) => a === '--api-key' || a.startsWith('--api-key=')))
    throw new UsageError(
      'no API key on the command line (shell history and process lists show it): ' +
        'put it in BURROW_API_KEY',
    );
  let parsed;
  try {
    const options = allOptions(commands);
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw parseFailure(error, argv.find(isCommand));
  }
  const values: Readonly<Record<string, unknown>> = parsed.values;
  const [name, ...args] = parsed.positionals;
  if (name === undefined) {
    if (values.help === true) return { help: true };
    throw new UsageError('no command given');
  }
  const spec = isCommand(name) ? commands[name] : undefined;
  if (spec === undefined) throw new UsageError(`unknown command "${name}"`);
  if (values.help === true) return { help: true, command: { name, spec } };
  const extra = Object.keys(values).find((key) => !(key in spec.options || key in GLOBAL_OPTIONS));
  if (extra !== undefined) throw new UsageError(`burrow ${name} takes no --${extra}`, name);
  // An empty value would stand for the current folder (--data-dir, --output) or match nothing.
  const empty = Object.entries(values).find(
    ([, v]) => v === '' || (Array.isArray(v) && v.includes('')),
  );
  if (empty !== undefined) throw new UsageError(`--${empty[0]} needs a value, not ""`, name);
  checkArguments(name, spec, args, values);
  if (values.profile !== undefined && values['api-url'] !== undefined)
    throw new UsageError('give --profile or --api-url, not both', name);
  const own = valuesOf(spec.options, values);
  const refusal = spec.refusal?.(own);
  if (refusal !== undefined) throw new UsageError(refusal, name);
  const command = { name, spec };
  return { help: false, command, args, values: own, options: globalOptions(values) };
}
