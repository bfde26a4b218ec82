/**
 * `npm run agent`: a tunnel agent for the sandbox. It prints `pid <n>` when it starts and
 * `session <id> online` on every (re)connection, and obeys the session commands. A restart
 * replaces the process (Node has no execve): the agent spawns its successor with the same
 * options (and the updated version, when the restart came 10 s or more after an update), waits
 * until the successor is online, and exits 0; the successor writes to the same stdout and prints
 * its own pid.
 */
import { spawn } from 'node:child_process';
import { agentUrlOf, AGENT_OSES, DEFAULT_REGION, Hello, type AgentOs } from '../tunnel/protocol.ts';
import { DEFAULT_AGENT_VERSION } from '../tunnel/releases.ts';
import { optionsOrExit, parseFlags, UsageError } from '../cli-args.ts';
import { Agent } from './agent.ts';

const USAGE =
  'usage: npm run agent -- --api-url URL --authtoken TOKEN [--os linux|darwin|windows] ' +
  '[--version X.Y.Z] [--region R] [--metadata TEXT] [--bind HOST]... [--no-update-check]';

/** How long a restarting agent waits for its successor to come online before it exits anyway. */
const HANDOVER_TIMEOUT_MS = 15_000;

type Options = {
  readonly apiUrl: string;
  readonly authtoken: string;
  readonly os: AgentOs;
  readonly version: string;
  readonly region: string;
  readonly metadata: string | undefined;
  readonly binds: readonly string[];
  readonly updateChecks: boolean;
};

function hostOs(): AgentOs {
  if (process.platform === 'win32') return 'windows';
  return process.platform === 'darwin' ? 'darwin' : 'linux';
}

const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  authtoken: '--authtoken',
  version: '--version',
  os: '--os',
  region: '--region',
  metadata: '--metadata',
  binds: '--bind',
};

function parse(argv: readonly string[]): Options | 'help' {
  const values = parseFlags(argv, {
    'api-url': { type: 'string' },
    authtoken: { type: 'string' },
    os: { type: 'string' },
    version: { type: 'string' },
    region: { type: 'string' },
    metadata: { type: 'string' },
    bind: { type: 'string', multiple: true },
    'no-update-check': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const apiUrl = values['api-url'];
  if (apiUrl === undefined) throw new UsageError('--api-url is required');
  if (!/^https?:\/\//.test(apiUrl) || !URL.canParse(apiUrl))
    throw new UsageError(`--api-url must be the sandbox's http(s) URL, not "${apiUrl}"`);
  if (values.authtoken === undefined) throw new UsageError('--authtoken is required');
  const options = {
    apiUrl,
    authtoken: values.authtoken,
    os: values.os ?? hostOs(),
    version: values.version ?? DEFAULT_AGENT_VERSION,
    region: values.region ?? DEFAULT_REGION,
    metadata: values.metadata,
    binds: values.bind ?? [],
    updateChecks: !values['no-update-check'],
  };
  // The hello schema is the one authority on what the agent may declare.
  const checked = Hello.safeParse({
    type: 'hello',
    authtoken: options.authtoken,
    version: options.version,
    os: options.os,
    region: options.region,
    ...(options.metadata !== undefined && { metadata: options.metadata }),
    binds: options.binds,
    update_checks: options.updateChecks,
  });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    const given = (options as Record<string, unknown>)[field];
    const what = field === 'os' ? `one of ${AGENT_OSES.join(', ')}` : issue?.message;
    throw new UsageError(
      `${FLAG_OF_FIELD[field] ?? field} ${typeof given === 'string' ? `"${given}" ` : ''}is invalid: ${what}`,
    );
  }
  return { ...options, os: checked.data.os };
}

/** The command line that starts an agent with these options. */
function argsOf(options: Options): string[] {
  return [
    '--api-url',
    options.apiUrl,
    '--authtoken',
    options.authtoken,
    '--os',
    options.os,
    '--version',
    options.version,
    '--region',
    options.region,
    ...(options.metadata !== undefined ? ['--metadata', options.metadata] : []),
    ...options.binds.flatMap((bind) => ['--bind', bind]),
    ...(options.updateChecks ? [] : ['--no-update-check']),
  ];
}

/** Starts the successor process and exits once it is online (or gone, or too slow). */
function replaceProcess(options: Options, version: string): void {
  const script = process.argv[1] ?? 'sandbox/agent/cli.ts';
  const child = spawn(
    process.execPath,
    [...process.execArgv, script, ...argsOf({ ...options, version })],
    { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] },
  );
  const leave = (code: number) => process.exit(code);
  child.on('message', () => leave(0));
  child.on('exit', (code) => leave(code ?? 1));
  child.on('error', (error) => {
    console.error(`agent: cannot start the restarted agent: ${error.message}`);
    leave(1);
  });
  setTimeout(() => leave(0), HANDOVER_TIMEOUT_MS).unref();
}

async function main(): Promise<void> {
  const config = await optionsOrExit('agent', USAGE, () => parse(process.argv.slice(2)));
  console.log(`pid ${process.pid}`);
  const agent = new Agent(
    {
      url: agentUrlOf(config.apiUrl),
      authtoken: config.authtoken,
      version: config.version,
      os: config.os,
      region: config.region,
      metadata: config.metadata,
      binds: config.binds,
      updateChecks: config.updateChecks,
    },
    {
      online: (id) => {
        console.log(`session ${id} online`);
        // The predecessor of a restart waits for this before it exits; then the tie is cut.
        if (process.send && process.connected)
          process.send({ online: id }, () => process.disconnect());
      },
      refused: (refusal) => {
        console.error(`agent: refused: ${refusal.message}`);
        process.exitCode = 1;
      },
      disconnected: (reason, retryInMs) =>
        console.error(`agent: ${reason}; reconnecting in ${(retryInMs / 1000).toFixed(2)} s`),
      replace: (version) => replaceProcess(config, version),
      stopped: (reason) => {
        if (reason === 'replaced') return;
        if (reason === 'command') console.log('stopped by command');
        process.exit(reason === 'refused' ? 1 : 0);
      },
    },
  ).start();
  const stop = () => void agent.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
