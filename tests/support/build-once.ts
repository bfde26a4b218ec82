/**
 * The e2e and package projects' global setup: runs `npm run build:test` unless its last build is
 * newer than every source it builds from, so that `npm test` builds once and a single test file
 * run by hand never starts yesterday's renderer, main process or CLIs.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_STAMP } from './bins.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = [
  'shared',
  'core',
  'sandbox',
  'web',
  'renderer',
  'electron',
  'tests/support/children',
  'scripts/build-electron.ts',
  'package-lock.json',
  'vite.config.ts',
];
const SCRIPT = 'scripts/build-test.ts';

function newest(entry: string): number {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce((latest, name) => {
    if (name === 'node_modules') return latest;
    return Math.max(latest, newest(path.join(entry, name)));
  }, stats.mtimeMs);
}

/** Whether `built` is missing or older than a change under `sources` (from the repository). */
function isOutOfDate(built: string, sources: readonly string[]): boolean {
  let builtAt = 0;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    // Missing: never built.
  }
  return builtAt <= Math.max(...sources.map((entry) => newest(path.join(repo, entry))));
}

/**
 * The folder that locks building `what` in this checkout: outside the repository, whose tree
 * electron-builder walks while other test processes build (a lock that vanished between its
 * listing and its look at it failed the packaged-app suite).
 */
function lockOf(what: string): string {
  const checkout = createHash('sha256').update(repo).digest('hex').slice(0, 12);
  return path.join(tmpdir(), `burrow-${checkout}-${what}.building`);
}

/**
 * Runs `run` holding `lock` (a folder): both e2e projects start at once (`npm run test:e2e`), and
 * test files run side by side; one builds, the others wait for it.
 */
function whileLocked(lock: string, run: () => void): void {
  const until = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`${lock} is still there after 5 minutes`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The environment a build runs in: this process's, but for NODE_ENV, so that a build started from
 * a test builds what `npm run build:test` builds. Vitest sets NODE_ENV=test, under which Vite built
 * a development renderer (Svelte's dev mode: 552 KB of script instead of 476), and the e2e tests
 * of a file run by hand clicked through another build than `npm test`'s.
 */
export function buildEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'NODE_ENV'));
}

/**
 * Runs `script` unless `built` is newer than every source, holding the lock of `what` while it
 * does. Looked at before the lock as well as in it: up to date, as after `npm ci` and
 * `npm run build:test`, no process takes or waits on a lock.
 */
export function buildUnlessFresh(
  built: string,
  sources: readonly string[],
  what: string,
  script: string,
): void {
  if (!isOutOfDate(built, sources)) return;
  whileLocked(lockOf(what), () => {
    if (!isOutOfDate(built, sources)) return;
    execFileSync(process.execPath, ['--import', 'tsx', script], {
      cwd: repo,
      stdio: 'inherit',
      env: buildEnvironment(process.env),
    });
  });
}

export default function setup(): void {
  buildUnlessFresh(BUILT_STAMP, [...SOURCES, SCRIPT], 'dist-test', SCRIPT);
}
