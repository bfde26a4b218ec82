/**
 * `npm run bench:cli`: how long the built `burrow` (dist/cli/burrow.js, which this builds first)
 * takes to start, as a ratio to `node -e 0` measured in the same run: `burrow --help` and
 * `burrow profiles` on a data folder with two profiles, the remote one's key in the keychain when
 * one answers (under a service of the bench's own, removed after). Runs are interleaved (one of each per
 * round) so that a busy moment of the machine weighs on all three alike. Budget: 3×.
 *
 * Options: --runs N (default 15).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { osKeychain, probeKeychain } from '../core/profiles/keychain.ts';
import { BURROW_BIN } from '../tests/support/built-cli.ts';
import { median } from './timing.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error('--runs must be a whole number, at least 1');
const BUDGET = 3;

const PROD_ID = 'prf_benchremote00001';

// What the app writes on its first launch, plus a remote profile whose key is looked up.
const dataDir = mkdtempSync(join(tmpdir(), 'burrow-bench-cli-'));
writeFileSync(
  join(dataDir, 'settings.json'),
  JSON.stringify({
    profiles: [
      { id: 'prf_benchlocal000001', name: 'Local sandbox', baseUrl: '', kind: 'local' },
      {
        id: PROD_ID,
        name: 'Prod',
        baseUrl: 'https://api.example.com',
        kind: 'remote',
      },
    ],
    activeProfileId: 'prf_benchlocal000001',
  }),
);
const service = `burrow-bench-${randomBytes(6).toString('hex')}`;
const secrets = await osKeychain(service);
const keychain = (await probeKeychain(secrets)).available;
if (keychain) await secrets.set(PROD_ID, 'bench-key');
const env = { ...process.env, BURROW_DATA_DIR: dataDir, BURROW_KEYCHAIN_SERVICE: service };

const CASES = {
  'node -e 0': ['-e', '0'],
  'burrow --help': [BURROW_BIN, '--help'],
  'burrow profiles': [BURROW_BIN, 'profiles'],
} as const;
type Case = keyof typeof CASES;

function timeOnce(name: Case): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, CASES[name], { env, encoding: 'utf8' });
  const took = performance.now() - started;
  if (run.status !== 0) throw new Error(`${name} failed (exit ${run.status}): ${run.stderr}`);
  return took;
}

try {
  const times = new Map<Case, number[]>(Object.keys(CASES).map((name) => [name as Case, []]));
  // One unmeasured round: the first start reads every file from disk.
  for (const name of times.keys()) timeOnce(name);
  for (let round = 0; round < runs; round++)
    for (const [name, samples] of times) samples.push(timeOnce(name));
  const base = median(times.get('node -e 0') ?? []);
  console.log(`node -e 0        median ${base.toFixed(0)} ms (${runs} runs, interleaved)`);
  console.log(`keychain: ${keychain ? "the remote profile's key in it" : 'none answers'}`);
  let over = false;
  for (const name of ['burrow --help', 'burrow profiles'] as const) {
    const ms = median(times.get(name) ?? []);
    const ratio = ms / base;
    over ||= ratio > BUDGET;
    console.log(
      `${name.padEnd(16)} median ${ms.toFixed(0)} ms, ${ratio.toFixed(2)}× node -e 0 (budget ${BUDGET}×)`,
    );
  }
  process.exitCode = over ? 1 : 0;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  if (keychain) await secrets.delete(PROD_ID);
}
