/**
 * The programs tests spawn, bundled by scripts/build-test.ts (see there why flat, one folder
 * below the repository): started with plain `node`, each is up in a third of the time
 * `node --import tsx` takes to compile it. The CLIs, and the children of tests that need another
 * process to do one thing (tests/support/children/).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** Relative to the repository, as the build runs there. */
export const TEST_BIN_DIR = 'dist-test';

/** Written last by the build: its time is the build's. */
export const BUILT_STAMP = path.join(repo, TEST_BIN_DIR, '.built');

export const TEST_BINS = {
  'sandbox-cli': 'sandbox/cli.ts',
  'agent-cli': 'sandbox/agent/cli.ts',
  'web-cli': 'web/cli.ts',
  'activity-appender': 'tests/support/children/activity-appender.ts',
  'killed-save': 'tests/support/children/killed-save.ts',
  'keychain-probe': 'tests/support/children/keychain-probe.ts',
} as const;

/** The bundle of a CLI or child, to spawn with `process.execPath`. */
export const bin = (name: keyof typeof TEST_BINS) => path.join(repo, TEST_BIN_DIR, `${name}.js`);
