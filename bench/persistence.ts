/**
 * The cost of a create with `--data` as the state grows: one request at a time (round trip
 * included), on a data file seeded with 1,000 and with 20,000 IP policies. The journal makes a
 * write cost one appended line whatever the size of the state, so the two should be alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startSandbox } from '../sandbox/index.ts';
import { newId } from '../sandbox/store/ids.ts';
import { snapshotText } from '../sandbox/store/persistence.ts';

const SIZES = [1_000, 20_000];
const WARMUP = 30;
const CREATES = 300;

/** A data file holding `n` policies of the default account, written directly (no 20,000 requests). */
function seededDataFile(n: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'burrow-bench-')), 'state.json');
  const created_at = new Date().toISOString();
  const ipPolicy = Array.from({ length: n }, (_, i) => ({
    id: newId('ipPolicy'),
    created_at,
    description: `office network ${i}`,
    metadata: '{"team":"bench"}',
  }));
  writeFileSync(file, snapshotText(0, { default: { ipPolicy } }));
  return file;
}

/** Milliseconds per create, the mean of CREATES after WARMUP. */
async function msPerCreate(records: number): Promise<number> {
  const file = seededDataFile(records);
  const sandbox = await startSandbox({ apiKey: 'bench-key', dataFile: file, rateLimit: 'off' });
  const pool = new Pool(sandbox.url, { connections: 1 });
  const create = async () => {
    const { statusCode, body } = await pool.request({
      method: 'POST',
      path: '/ip_policies',
      headers: {
        authorization: 'Bearer bench-key',
        'service-version': '2',
        'content-type': 'application/json',
      },
      body: '{"description":"bench","metadata":"{\\"team\\":\\"bench\\"}"}',
    });
    await body.dump();
    if (statusCode !== 201) throw new Error(`create answered ${statusCode}`);
  };
  try {
    for (let i = 0; i < WARMUP; i++) await create();
    const started = performance.now();
    for (let i = 0; i < CREATES; i++) await create();
    return (performance.now() - started) / CREATES;
  } finally {
    await pool.close();
    await sandbox.close();
    rmSync(join(file, '..'), { recursive: true, force: true });
  }
}

export async function benchPersistence(): Promise<void> {
  const [small = 0, large = 0] = SIZES;
  const [atSmall, atLarge] = [await msPerCreate(small), await msPerCreate(large)];
  console.log(
    `persistence: create with --data, one at a time: ${atSmall.toFixed(2)} ms at ${small.toLocaleString('en')} records, ` +
      `${atLarge.toFixed(2)} ms at ${large.toLocaleString('en')} records (${(atLarge / atSmall).toFixed(2)}×)`,
  );
}
