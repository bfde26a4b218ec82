import { parseArgs } from 'node:util';
import { UsageError } from './io.ts';

/** Every option of every command; which command takes which is in COMMANDS. */
const OPTIONS = {
  profile: { type: 'string' },
  'api-url': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  output: { type: 'string', short: 'o' },
  'with-secrets': { type: 'boolean' },
  prune: { type: 'boolean' },
  'from-profile': { type: 'string' },
  restart: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  watch: { type: 'boolean' },
  interval: { type: 'string' },
  ca: { type: 'string' },
  principal: { type: 'string', multiple: true },
  host: { type: 'boolean' },
  validity: { type: 'string' },
  'key-type': { type: 'string' },
  dir: { type: 'string' },
  overwrite: { type: 'boolean' },
} as const;
type OptionName = keyof typeof OPTIONS;

const GLOBAL: readonly OptionName[] = ['profile', 'api-url', 'data-dir', 'json', 'help'];

const COMMAND_NAMES = [
  'profiles',
  'sessions',
  'restart',
  'stop',
  'update',
  'export',
  'plan',
  'apply',
  'ssh',
] as const;
type CommandName = (typeof COMMAND_NAMES)[number];

type CommandSpec = {
  readonly args: readonly string[];
  /** The first argument's values, when it names a subcommand. */
  readonly subcommands?: readonly string[];
  readonly options: readonly OptionName[];
  readonly summary: string;
  readonly details?: string;
};

const AGENT_DETAILS =
  'AGENT is an agent name (as "burrow sessions" shows it) or a session id; a name that more ' +
  'than one session has must be given as a session id.';

const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = {
  profiles: {
    args: [],
    options: [],
    summary: 'the profiles: name, address, whether active, whether its key is in the keychain',
  },
  sessions: {
    args: [],
    options: ['watch', 'interval'],
    summary: "the profile's tunnel sessions: agent, session id, region, version, started",
    details:
      'With --watch, then a line each time a session comes online or goes, until Ctrl-C ' +
      '(with --json, one JSON object a line).',
  },
  restart: { args: ['AGENT'], options: [], summary: 'restart an agent', details: AGENT_DETAILS },
  stop: {
    args: ['AGENT'],
    options: ['yes'],
    summary: 'stop an agent (asks first unless --yes)',
    details: AGENT_DETAILS,
  },
  update: {
    args: ['AGENT'],
    options: ['restart'],
    summary: 'update an agent to the newest version of its major version',
    details:
      `${AGENT_DETAILS} With --restart, then waits for the update to settle (10 s), restarts ` +
      'the agent and waits for it to come back, telling each step on stderr when it is a terminal.',
  },
  export: {
    args: [],
    options: ['output', 'with-secrets'],
    summary: "the profile's whole configuration as a snapshot (JSON), to stdout or -o FILE",
    details:
      'Secrets the API returns (OAuth/OIDC client secrets, webhook secrets) are left out unless ' +
      '--with-secrets; a file holding them is written readable by you alone (0600).',
  },
  plan: {
    args: ['FILE'],
    options: ['from-profile', 'prune'],
    summary: 'what applying a snapshot to the profile would change; exit 0: nothing, 2: changes',
    details:
      'Resources of the profile that the snapshot lacks are left alone unless --prune, which ' +
      'plans their deletion. Secrets are masked. "plan --from-profile P" (no FILE) plans the ' +
      'profile P of the app, as it is now, against this one.',
  },
  apply: {
    args: ['FILE'],
    options: ['yes', 'prune'],
    summary: 'apply a snapshot to the profile (shows the plan, asks first unless --yes)',
    details:
      'An apply that stops (an error, Ctrl-C, a crash) is carried on by running the same ' +
      'command again: nothing is created twice.',
  },
  ssh: {
    args: ['new|sign|renew', 'NAME|FILE'],
    subcommands: ['new', 'sign', 'renew'],
    options: ['ca', 'principal', 'host', 'validity', 'key-type', 'dir', 'overwrite'],
    summary: 'SSH keys and certificates signed by a CA of the profile',
    details:
      '"ssh new NAME --ca CA" makes a key pair (not passphrase-protected: add one with ' +
      'ssh-keygen -p) and its certificate as NAME, NAME.pub and NAME-cert.pub in --dir (default ' +
      '~/.ssh); "ssh sign FILE.pub --ca CA" signs an existing public key, saving FILE-cert.pub ' +
      'beside it; "ssh renew NAME" signs a saved certificate again (NAME is its key file name or ' +
      'its id). CA is the id or the description of an SSH certificate authority. Existing files ' +
      'are never replaced without --overwrite.',
  },
};

const OPTION_HELP: Readonly<Record<OptionName, string>> = {
  profile: '--profile NAME    a profile of the app (default: the active one)',
  'api-url': '--api-url URL     an API address instead, its key in BURROW_API_KEY',
  'data-dir': "--data-dir DIR    the app's data folder (default: BURROW_DATA_DIR or the app's)",
  json: '--json            machine-readable output',
  help: '--help, -h        this help',
  output: '--output, -o FILE write the snapshot to FILE',
  'with-secrets': '--with-secrets    keep the secrets the API returns',
  prune: '--prune           also delete what the snapshot does not have',
  'from-profile': '--from-profile P  the profile P of the app to plan, instead of FILE',
  restart: '--restart         then restart it on the new version and wait for it',
  yes: '--yes, -y         do not ask for confirmation',
  watch: '--watch           keep listening for sessions that come and go',
  interval: '--interval SECS   how often --watch asks (default 5; 2 to 86400)',
  ca: '--ca CA           the SSH certificate authority (id or description)',
  principal: '--principal P     a user (or host) name the certificate is for; repeatable',
  host: '--host            a host certificate (default: a user certificate)',
  validity: '--validity V      1h, 8h, 1d, 7d, 30d, 90d or 1y (default 1d; 1y for hosts)',
  'key-type': '--key-type T      ed25519 (default), ecdsa or rsa',
  dir: '--dir DIR         where the key files go (default ~/.ssh)',
  overwrite: '--overwrite       replace files that exist',
};

export function usage(command?: CommandName): string {
  if (command === undefined)
    return [
      'usage: burrow COMMAND [options]',
      '',
      'Commands:',
      ...COMMAND_NAMES.map((name) => {
        const spec = COMMANDS[name];
        return `  ${[name, ...spec.args].join(' ').padEnd(16)}${spec.summary}`;
      }),
      '',
      'Options of every command:',
      ...GLOBAL.map((o) => `  ${OPTION_HELP[o]}`),
      '',
      'Exit status: 0 ok, 1 error, 2 "plan" found changes.',
      'Run "burrow COMMAND --help" for a command.',
      '',
    ].join('\n');
  const spec = COMMANDS[command];
  return [
    `usage: burrow ${[command, ...spec.args].join(' ')} [options]`,
    '',
    `${spec.summary[0]?.toUpperCase() ?? ''}${spec.summary.slice(1)}.`,
    ...(spec.details === undefined ? [] : [spec.details]),
    '',
    'Options:',
    ...[...spec.options, ...GLOBAL].map((o) => `  ${OPTION_HELP[o]}`),
    '',
  ].join('\n');
}

export type Options = {
  readonly profile?: string;
  readonly apiUrl?: string;
  readonly dataDir?: string;
  readonly json: boolean;
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

type Invocation =
  | { readonly help: true; readonly command?: CommandName }
  | {
      readonly help: false;
      readonly command: CommandName;
      readonly args: readonly string[];
      readonly options: Options;
    };

function isCommand(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

/** The command line, checked: a command, its arguments, and only the options it takes. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  // Refused by name, not as an unknown option: the person should learn where the key goes.
  if (argv.some((a) => a === '--api-key' || a.startsWith('--api-key=')))
    throw new UsageError(
      'no API key on the command line (shell history and process lists show it): ' +
        'put it in BURROW_API_KEY',
    );
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const option = /'(-[^']*)'/.exec(text)?.[1];
    const command = argv.find(isCommand);
    throw new UsageError(
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `unknown option ${option ?? text}`
        : (text.split('\n')[0] ?? text),
      command,
    );
  }
  const { values, positionals } = parsed;
  const [name, ...args] = positionals;
  if (name === undefined) {
    if (values.help === true) return { help: true };
    throw new UsageError('no command given');
  }
  if (!isCommand(name)) throw new UsageError(`unknown command "${name}"`);
  if (values.help === true) return { help: true, command: name };
  const spec = COMMANDS[name];
  const taken = new Set<string>([...spec.options, ...GLOBAL]);
  const extra = Object.keys(values).find((key) => !taken.has(key));
  if (extra !== undefined) throw new UsageError(`burrow ${name} takes no --${extra}`, name);
  // An empty value would stand for the current folder (--data-dir, --output) or match nothing.
  const empty = Object.entries(values).find(
    ([, v]) => v === '' || (Array.isArray(v) && v.includes('')),
  );
  if (empty !== undefined) throw new UsageError(`--${empty[0]} needs a value, not ""`, name);
  // A profile to plan stands in the place of the file.
  const fromProfile = values['from-profile'] !== undefined;
  if (fromProfile && args.length > 0)
    throw new UsageError(`give FILE or --from-profile, not both`, name);
  if (!fromProfile && args.length !== spec.args.length)
    throw new UsageError(
      spec.args.length === 0
        ? `burrow ${name} takes no argument, not "${args.join(' ')}"`
        : `burrow ${name} needs ${spec.args.join(' ')}`,
      name,
    );
  const sub = spec.subcommands;
  if (sub !== undefined && args[0] !== undefined && !sub.includes(args[0]))
    throw new UsageError(`burrow ${name} ${args[0]}: not one of ${sub.join(', ')}`, name);
  const interval = Number(values.interval ?? '5');
  // Within a quarter of the service's 120 requests a minute, as the app's own polling keeps; and
  // at most a day, as a timer longer than 2^31 ms fires at once and would poll without a pause.
  if (!(interval >= 2 && interval <= 86_400))
    throw new UsageError(
      `--interval must be a number of seconds, at least 2 and at most 86400`,
      name,
    );
  if (values.interval !== undefined && values.watch !== true)
    throw new UsageError('--interval goes with --watch', name);
  if (values.profile !== undefined && values['api-url'] !== undefined)
    throw new UsageError('give --profile or --api-url, not both', name);
  return {
    help: false,
    command: name,
    args,
    options: {
      ...(values.profile !== undefined && { profile: values.profile }),
      ...(values['api-url'] !== undefined && { apiUrl: values['api-url'] }),
      ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] }),
      ...(values.output !== undefined && { output: values.output }),
      json: values.json === true,
      withSecrets: values['with-secrets'] === true,
      prune: values.prune === true,
      ...(values['from-profile'] !== undefined && { fromProfile: values['from-profile'] }),
      restart: values.restart === true,
      yes: values.yes === true,
      watch: values.watch === true,
      intervalMs: interval * 1000,
      ssh: {
        ...(values.ca !== undefined && { ca: values.ca }),
        principals: values.principal ?? [],
        host: values.host === true,
        ...(values.validity !== undefined && { validity: values.validity }),
        ...(values['key-type'] !== undefined && { keyType: values['key-type'] }),
        ...(values.dir !== undefined && { dir: values.dir }),
        overwrite: values.overwrite === true,
      },
    },
  };
}
