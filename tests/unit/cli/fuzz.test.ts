import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as registry from '../../../cli/commands/index.ts';
import { burrow, type Run } from './run.ts';
import { fuzzCount } from '../../support/fuzz-size.ts';

/*
 * 1,000 malformed command lines, the same on every run (a seed), through `main` in this process.
 * The data folder has no settings.json, so that no vector reaches the keychain; an address that
 * would be called is a closed loopback port.
 */

const SEED = 0x5eed_b0b;
const VECTORS = fuzzCount(1_000, 250); // the first 250 in `npm test` (BURROW_FUZZ=full: all)
/**
 * Not a speed limit: a backstop against a hang, far beyond what any machine takes, after which
 * the test names the command lines still running instead of timing out blind.
 */
const BACKSTOP_MS = 240_000;
/** Vectors that reach the closed port wait out the client's retries: they run side by side. */
const AT_ONCE = 25;

/** mulberry32: small, seeded, good enough to pick from lists. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return { next, pick };
}

let root: string;
let home: string;
let cwd: string;
let dataDir: string;
let closed: string;
const realHome = process.env['HOME'];

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Every file and folder under `dir`, sorted. */
const listing = async (dir: string) =>
  (await readdir(dir, { recursive: true, encoding: 'utf8' })).sort();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'burrow-fuzz-'));
  [home, cwd, dataDir] = ['home', 'cwd', 'data'].map((name) => join(root, name)) as [
    string,
    string,
    string,
  ];
  for (const dir of [home, cwd, dataDir]) await mkdir(dir);
  await writeFile(join(cwd, 'snapshot.json'), '{"format":"burrow-snapshot"}');
  await writeFile(join(cwd, 'key.pub'), 'ssh-ed25519 AAAA');
  closed = `127.0.0.1:${await closedPort()}`;
  // ~/.ssh, the default key folder, is the process's home: the temporary one for this test.
  process.env['HOME'] = home;
});

afterAll(async () => {
  process.env['HOME'] = realHome;
  await rm(root, { recursive: true, force: true });
});

const COMMANDS = Object.keys(registry);
const OPTIONS = [
  ...new Set(
    Object.values(registry).flatMap((c) => Object.keys(c.options).map((name) => `--${name}`)),
  ),
  '--profile',
  '--api-url',
  '--data-dir',
  '--json',
];

function vector(seed: number): { argv: string[]; env: Record<string, string | undefined> } {
  const { next, pick } = random(seed);
  const huge = () => pick(['x', 'é', '\x1b', '/', 'a b']).repeat(1 + Math.floor(next() * 100_000));
  const control = () => `v${String.fromCharCode(Math.floor(next() * 32))}\x7f\x9b${next()}`;
  const value = () =>
    pick([
      '',
      '-',
      '--',
      '-x',
      'plain',
      'snapshot.json',
      'key.pub',
      '../outside',
      '1e309',
      'NaN',
      '-1',
      '0',
      '☃',
      // The selection and rollout options' own shapes, a little off and right.
      '3.2.1',
      '3.2',
      'build-*',
      'online',
      'skip',
      '51',
      control(),
      huge(),
    ]);
  const apiUrl = () =>
    pick([
      'not a url',
      'ftp://127.0.0.1/',
      'http://example.com',
      'http://10.0.0.1:8080',
      `http://user:pw@${closed}`,
      `http://${closed}`,
      `https://${closed}`,
      `http://${closed}/v1?x=${control()}`,
      `http://${huge()}`,
      'javascript:alert(1)',
      '',
    ]);
  const dataDirValue = () =>
    pick([
      dataDir,
      '/dev/null',
      '/proc/self',
      '.',
      'relative/dir',
      '\0',
      huge(),
      join(cwd, 'key.pub'),
      '~',
    ]);
  const piece = (): string[] =>
    pick<() => string[]>([
      () => [pick(COMMANDS)],
      () => [pick(COMMANDS).toUpperCase()],
      () => [pick(['frobnicate', 'help', 'version', '', ' ', '-', '--', control(), huge()])],
      () => [pick(OPTIONS)],
      () => [pick(OPTIONS), value()],
      () => [`${pick(OPTIONS)}=${value()}`],
      () => [`--${pick(['nope', 'api-key', 'API-URL', 'profile ', 'jsonx', ''])}`],
      () => [`-${pick(['h', 'y', 'o', 'x', 'hy', 'yo', 'oh', 'Z'])}`],
      () => ['--api-url', apiUrl()],
      () => ['--data-dir', dataDirValue()],
      () => ['--profile', pick(['Missing', 'prod', control(), huge()])],
      () => ['--interval', value()],
      () => [value()],
    ])();
  // A well-formed command line on an account, then up to three pieces put in anywhere.
  const name = pick(COMMANDS);
  const command = registry[name as keyof typeof registry];
  const target = pick<() => string[]>([
    () => [],
    () => ['--api-url', apiUrl()],
    () => ['--profile', pick(['Missing', 'prod', control(), huge()])],
  ])();
  const args = command.args.map((_, i) =>
    i === 0 && command.subcommands !== undefined ? pick(command.subcommands) : value(),
  );
  const argv = [name, ...args, ...target];
  for (let n = Math.floor(next() * 4); n > 0; n--)
    argv.splice(Math.floor(next() * (argv.length + 1)), 0, ...piece());
  // Now and then a word goes, or the command is not first.
  if (next() < 0.1) argv.splice(Math.floor(next() * argv.length), 1);
  if (next() < 0.1) argv.reverse();
  const key = pick([undefined, '', 'junk', ' junk\n', 'bk_\x1b[2J', huge()]);
  const folder = pick([{ BURROW_DATA_DIR: dataDir }, {}, { BURROW_DATA_DIR: dataDirValue() }]);
  return { argv, env: { BURROW_API_KEY: key, ...folder } };
}

/**
 * What a vector must give: exit 1 with one clean line on stderr, or exit 0 and the help (or,
 * for `burrow completion SHELL`, which needs no account, its script).
 */
function problem(run: Run): string | undefined {
  if (/^ {4}at /m.test(run.stderr) || /^ {4}at /m.test(run.stdout)) return 'a stack trace';
  if (run.code === 0)
    return /^(usage: burrow |#compdef burrow\n|# burrow completion for )/.test(run.stdout) &&
      run.stderr === ''
      ? undefined
      : 'exit 0 without the help';
  if (run.code !== 1) return `exit ${run.code}`;
  const lines = run.stderr.split('\n');
  if (lines.length !== 2 || lines[1] !== '') return `${lines.length - 1} lines on stderr`;
  if (!/^burrow: \S/.test(run.stderr)) return 'stderr is not "burrow: …"';
  if (/[^\P{Cc}\n]/u.test(run.stderr)) return 'a control character on stderr';
  if (run.stdout !== '') return 'output on stdout';
  return undefined;
}

it(
  `${VECTORS} malformed command lines: each one clean line (or the help), none hangs or writes`,
  async () => {
    const before = { home: await listing(home), cwd: await listing(cwd) };
    const failures: string[] = [];
    const running = new Map<number, string[]>();
    const queue = Array.from({ length: VECTORS }, (_, i) => SEED + i);
    const worker = async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
        const { argv, env } = vector(seed);
        running.set(seed, argv);
        const run = await burrow(argv, env, cwd);
        running.delete(seed);
        const found = problem(run);
        if (found !== undefined)
          failures.push(
            `seed ${seed}: ${found}: ${JSON.stringify(argv).slice(0, 300)} → ${run.code} ${run.stderr.slice(0, 300)}`,
          );
      }
    };
    const backstop = new AbortController();
    const hung = await Promise.race([
      Promise.all(Array.from({ length: AT_ONCE }, worker)).then(() => []),
      delay(BACKSTOP_MS, undefined, { signal: backstop.signal }).then(() =>
        [...running].map(([seed, argv]) => `seed ${seed}: ${JSON.stringify(argv).slice(0, 300)}`),
      ),
    ]).finally(() => backstop.abort());
    expect(hung, 'command lines that never ended').toEqual([]);
    expect(failures).toEqual([]);
    expect(await listing(home)).toEqual(before.home);
    expect(await listing(cwd)).toEqual(before.cwd);
  },
  BACKSTOP_MS + 30_000,
);
