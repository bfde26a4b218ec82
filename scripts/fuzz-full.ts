/**
 * The fuzz suites at their full counts: `npm run test:fuzz`. `npm test` runs the first share of
 * each (tests/support/fuzz-size.ts); this sets BURROW_FUZZ=full and runs every test file with
 * "fuzz" in its name, in the unit and integration projects. Arguments are passed on to Vitest.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const run = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--project',
    'unit',
    '--project',
    'integration',
    'fuzz',
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: { ...process.env, BURROW_FUZZ: 'full' } },
);
process.exit(run.status ?? 1);
