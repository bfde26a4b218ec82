/**
 * Requests per second of the sandbox for GET by id, a 100-item list page and create (rate limit
 * off), each next to a bare node:http server answering a fixed JSON body, measured in this run on
 * this machine. The client is an undici Pool in the same process for both, so the ratio compares
 * the servers' costs under the same client overhead.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { startSandbox } from '../sandbox/index.ts';
import { benchAgents } from './agents.ts';
import { benchPersistence } from './persistence.ts';
import { benchSshSigning } from './ssh-signing.ts';

const CONNECTIONS = 12;
const IN_FLIGHT = 48;
const WARMUP_MS = 500;
const MEASURE_MS = 3000;
const SEEDED = 300;

type Request = {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
};

/** Requests per second over MEASURE_MS, after a warmup, with IN_FLIGHT concurrent requests. */
async function measure(origin: string, next: () => Request): Promise<number> {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  let count = 0;
  let counting = false;
  let stopAt = Date.now() + WARMUP_MS + MEASURE_MS;
  const worker = async () => {
    while (Date.now() < stopAt) {
      const { statusCode, body } = await pool.request(next());
      await body.dump();
      if (statusCode >= 300) throw new Error(`unexpected status ${statusCode}`);
      if (counting) count++;
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  counting = true;
  const started = performance.now();
  stopAt = Date.now() + MEASURE_MS;
  await Promise.all(workers);
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return count / elapsed;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ apiKey: 'bench-key', rateLimit: 'off' });
  const headers = { authorization: 'Bearer bench-key', 'service-version': '2' };
  const json = { ...headers, 'content-type': 'application/json' };

  const seed = new Pool(sandbox.url, { connections: 4 });
  let id = '';
  for (let i = 0; i < SEEDED; i++) {
    const { body } = await seed.request({
      method: 'POST',
      path: '/ip_policies',
      headers: json,
      body: JSON.stringify({ description: `seed ${i}` }),
    });
    id = ((await body.json()) as { id: string }).id;
  }
  await seed.close();

  // The baseline answers what GET by id answers, so both write the same bytes.
  const fixed = JSON.stringify({
    id,
    uri: `${sandbox.url}/ip_policies/${id}`,
    created_at: new Date().toISOString(),
    description: 'seed',
  });
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(fixed);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const baseline = await measure(bareUrl, () => ({ method: 'GET', path: '/', headers }));
  const scenarios: [string, () => Request][] = [
    ['GET by id', () => ({ method: 'GET', path: `/ip_policies/${id}`, headers })],
    ['list (100 per page)', () => ({ method: 'GET', path: '/ip_policies?limit=100', headers })],
    [
      'create',
      () => ({
        method: 'POST',
        path: '/ip_policies',
        headers: json,
        body: '{"description":"bench"}',
      }),
    ],
  ];
  console.log(`baseline node:http fixed JSON: ${baseline.toFixed(0)} req/s`);
  for (const [name, next] of scenarios) {
    const rate = await measure(sandbox.url, next);
    console.log(
      `sandbox ${name}: ${rate.toFixed(0)} req/s (${(rate / baseline).toFixed(2)}× of node:http)`,
    );
  }
  bare.close();
  await sandbox.close();
  await benchPersistence();
  await benchAgents();
  await benchSshSigning();
}

await main();
