import { readFile } from 'node:fs/promises';
import { isLoopbackHost } from '../shared/api/values/loopback-address.ts';
import { MAX_ABUSE_REVIEW_DELAY_MS } from './abuse/review.ts';
import { parseAccountsFile, type AccountsFile } from './accounts.ts';
import { optionsOrExit, parseFlags, UsageError } from './cli-args.ts';
import { parseRateLimit } from './http/rate-limit.ts';
import { startSandbox, type SandboxOptions } from './index.ts';

const USAGE =
  'usage: npm run sandbox -- [--host 127.0.0.1] [--port 4040|0] [--accounts FILE] [--api-key K] ' +
  '[--rate-limit 120/60|off] [--no-retry-after] [--data FILE] [--base-url URL] [--ssh-port N|0] [--demo] ' +
  '[--abuse-review-delay MS]';

const DEFAULT_PORT = 4040;

function parsePort(text: string, flag = '--port'): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535)
    throw new UsageError(`${flag} must be a port from 0 to 65535, not "${text}"`);
  return Number(text);
}

function parseDelay(text: string, flag: string): number {
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) > MAX_ABUSE_REVIEW_DELAY_MS)
    throw new UsageError(
      `${flag} must be milliseconds from 0 to ${MAX_ABUSE_REVIEW_DELAY_MS}, not "${text}"`,
    );
  return Number(text);
}

async function readAccounts(path: string): Promise<AccountsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --accounts ${path}: ${(error as Error).message}`);
  }
  try {
    const json: unknown = JSON.parse(text);
    parseAccountsFile(json);
    return json as AccountsFile;
  } catch (error) {
    throw new UsageError(`--accounts ${path}: ${(error as Error).message}`);
  }
}

async function optionsFrom(argv: readonly string[]): Promise<SandboxOptions | 'help'> {
  const values = parseFlags(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    accounts: { type: 'string' },
    'api-key': { type: 'string' },
    'rate-limit': { type: 'string' },
    'no-retry-after': { type: 'boolean' },
    data: { type: 'string' },
    'base-url': { type: 'string' },
    'ssh-port': { type: 'string' },
    demo: { type: 'boolean' },
    'abuse-review-delay': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  let rateLimit: SandboxOptions['rateLimit'];
  try {
    rateLimit = parseRateLimit(values['rate-limit'] ?? '120/60');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // The default is loopback; another address is only ever bound because --host asked for it.
  if (values.host !== undefined && !isLoopbackHost(values.host))
    console.warn(`warning: listening on ${values.host}, reachable from other machines`);
  if (values['api-key'] !== undefined && values.accounts !== undefined)
    throw new UsageError(
      '--api-key is for the default account; an --accounts file has its own keys',
    );
  return {
    host: values.host ?? '127.0.0.1',
    port: values.port !== undefined ? parsePort(values.port) : DEFAULT_PORT,
    ...(values.accounts !== undefined && { accounts: await readAccounts(values.accounts) }),
    ...(values['api-key'] !== undefined && { apiKey: values['api-key'] }),
    rateLimit,
    ...(values['no-retry-after'] && { retryAfter: false }),
    ...(values.data !== undefined && { dataFile: values.data }),
    ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] }),
    ...(values['ssh-port'] !== undefined && {
      sshPort: parsePort(values['ssh-port'], '--ssh-port'),
    }),
    ...(values.demo && { demo: true }),
    ...(values['abuse-review-delay'] !== undefined && {
      abuseReviewDelayMs: parseDelay(values['abuse-review-delay'], '--abuse-review-delay'),
    }),
    log: (line) => console.log(line),
  };
}

async function main(): Promise<void> {
  const options = await optionsOrExit('sandbox', USAGE, () => optionsFrom(process.argv.slice(2)));
  const sandbox = await startSandbox(options).catch((error: unknown) => {
    console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
  console.log(`Sandbox ready at ${sandbox.url}`);
  if (sandbox.sshPort !== undefined) {
    const host = options.host ?? '127.0.0.1';
    console.log(`SSH gateway on ${host.includes(':') ? `[${host}]` : host}:${sandbox.sshPort}`);
  }
  if (sandbox.apiKey !== undefined && options.apiKey === undefined)
    console.log(`API key: ${sandbox.apiKey}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`sandbox: shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
