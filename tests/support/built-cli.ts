/**
 * The `burrow` command as package.json's `bin` installs it: dist/cli/burrow.js, built by
 * scripts/build-cli.ts (`npm ci` runs it as `prepare`). Tests spawn `builtBurrow()`, which
 * builds it first when a source is newer, so that a run by hand after an edit never starts
 * yesterday's command.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUnlessFresh } from './build-once.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));

export const BURROW_BIN = path.join(repo, 'dist', 'cli', 'burrow.js');

const SOURCES = [
  'cli',
  'core',
  'shared',
  'sandbox',
  'package-lock.json',
  'scripts/build-cli.ts',
  'scripts/node-bundle.ts',
];

let checked = false;

/** BURROW_BIN, built first unless it is newer than every source (checked once a process). */
export function builtBurrow(): string {
  if (checked) return BURROW_BIN;
  buildUnlessFresh(BURROW_BIN, SOURCES, 'dist-cli', 'scripts/build-cli.ts');
  checked = true;
  return BURROW_BIN;
}
