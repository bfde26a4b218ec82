/**
 * `npm run bench:client [-- --quick]`: a full sync of many IP policies through the governed API
 * client, against a sandbox enforcing the rate limit, timed against the physical minimum for that
 * limit; then a naive loop (no governor, a fixed 1 s wait after each 429) over the same data.
 *
 * Options: --quick (or BENCH_QUICK=1) scales the window and the data down to finish in well
 * under a minute; --items N and --limit R/S override either.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { createApiClient } from '../core/api/client.ts';
import { RateGovernor } from '../core/api/governor.ts';
import { startSandbox } from '../sandbox/index.ts';
import { SERVICE_VERSION, SERVICE_VERSION_HEADER } from '../shared/api/version.ts';

const API_KEY = 'bench-key';
const PAGE_SIZE = 100;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: process.env['BENCH_QUICK'] === '1' },
    items: { type: 'string' },
    limit: { type: 'string' },
  },
});
const quick = values.quick;
const items = Number(values.items ?? (quick ? 6_000 : 20_000));
const [requests, windowSeconds] = (values.limit ?? (quick ? '20/3' : '120/60'))
  .split('/')
  .map(Number) as [number, number];
const windowMs = windowSeconds * 1000;
const pages = Math.max(1, Math.ceil(items / PAGE_SIZE));
// The first `requests` go at once; each later batch of `requests` one window after the previous.
const minimumMs = Math.floor((pages - 1) / requests) * windowMs;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (ms: number) => (minimumMs === 0 ? 'n/a' : (ms / minimumMs).toFixed(3));

async function seed(dataFile: string): Promise<void> {
  const sandbox = await startSandbox({ apiKey: API_KEY, rateLimit: 'off', dataFile });
  const client = createApiClient({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    // The seeding sandbox has no limit; the client's window is opened to match.
    governor: new RateGovernor({ limit: { requests: 1e9, windowMs: 1 } }),
    transport: { connections: 16 },
  });
  let next = 0;
  const worker = async () => {
    while (next < items) {
      next += 1;
      await client.ipPolicies.create({ description: `policy ${next}` });
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  await client.close();
  await sandbox.close();
}

async function governedSync(dataFile: string) {
  const sandbox = await startSandbox({
    apiKey: API_KEY,
    rateLimit: { requests, windowSeconds },
    dataFile,
  });
  let rateLimited = 0;
  let pagesSeen = 0;
  const client = createApiClient({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    rateLimit: { requests, windowMs },
    onEvent: (event) => {
      if (event.type === 'rate-limited') rateLimited += 1;
    },
  });
  const started = performance.now();
  const all = await client.ipPolicies.listAll({ onProgress: (_, p) => (pagesSeen = p) });
  const elapsedMs = performance.now() - started;
  await client.close();
  await sandbox.close();
  return { elapsedMs, rateLimited, requests: pagesSeen + rateLimited, count: all.length };
}

/** What other clients do: follow next_page_uri, and on a 429 wait a fixed second and retry. */
async function naiveSync(dataFile: string) {
  const sandbox = await startSandbox({
    apiKey: API_KEY,
    rateLimit: { requests, windowSeconds },
    dataFile,
  });
  const headers = {
    authorization: `Bearer ${API_KEY}`,
    [SERVICE_VERSION_HEADER]: SERVICE_VERSION,
  };
  let rateLimited = 0;
  let sent = 0;
  let count = 0;
  let next: string | null = `${sandbox.url}/ip_policies`;
  const started = performance.now();
  while (next !== null) {
    sent += 1;
    const response = await request(next, { headers });
    const body = (await response.body.json()) as {
      ip_policies: unknown[];
      next_page_uri: string | null;
    };
    if (response.statusCode === 429) {
      rateLimited += 1;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      continue;
    }
    count += body.ip_policies.length;
    next = body.next_page_uri;
  }
  const elapsedMs = performance.now() - started;
  await sandbox.close();
  return { elapsedMs, rateLimited, requests: sent, count };
}

const dir = await mkdtemp(join(tmpdir(), 'burrow-bench-client-'));
try {
  const dataFile = join(dir, 'sandbox.json');
  console.log(
    `bench:client${quick ? ' (quick)' : ''}: ${items} IP policies, ${pages} pages of ${PAGE_SIZE}, ` +
      `limit ${requests} per ${windowSeconds} s`,
  );
  const seedStarted = performance.now();
  await seed(dataFile);
  console.log(`seeded in ${seconds(performance.now() - seedStarted)} (rate limit off)`);
  console.log(
    `physical minimum: ${seconds(minimumMs)} (first ${requests} requests at once, then ${requests} per ${windowSeconds} s)`,
  );
  const report = (name: string, run: Awaited<ReturnType<typeof naiveSync>>) =>
    console.log(
      `${name}: ${seconds(run.elapsedMs)}, ratio ${ratio(run.elapsedMs)}, 429s ${run.rateLimited}, ` +
        `requests ${run.requests}, items ${run.count}${run.count === items ? '' : ` (expected ${items})`}`,
    );
  report('governed client', await governedSync(dataFile));
  report('naive loop     ', await naiveSync(dataFile));
} finally {
  await rm(dir, { recursive: true, force: true });
}
