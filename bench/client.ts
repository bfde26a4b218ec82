/**
 * `npm run bench:client [-- --quick]`: a full sync of many IP policies through the governed API
 * client, against a sandbox enforcing the rate limit, timed against the physical minimum for that
 * limit; then a naive loop (no governor, a fixed 1 s wait after each 429) over the same data.
 * Then a 429 storm: another program on the account takes half of every window, the sandbox sends
 * no Retry-After (as the real service), and both sync two windows' worth of our half.
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
import { SERVICE_VERSION, SERVICE_VERSION_HEADER } from '../shared/api/catalog/version.ts';

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
// In the storm, our half of each window: two windows' worth of it, plus one page.
const stormShare = Math.ceil(requests / 2);
const stormPages = Math.min(pages, 2 * stormShare + 1);
const stormMinimumMs = Math.floor((stormPages - 1) / stormShare) * windowMs;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (ms: number, minimum: number) => (minimum === 0 ? 'n/a' : (ms / minimum).toFixed(3));

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

type Run = { elapsedMs: number; rateLimited: number; requests: number; count: number };
type Sync = (url: string, maxPages: number) => Promise<Run>;

/** A sandbox on the seeded data, for one run; `retryAfter: false` answers as the real service. */
async function onSandbox(
  dataFile: string,
  retryAfter: boolean,
  run: (url: string) => Promise<Run>,
) {
  const sandbox = await startSandbox({
    apiKey: API_KEY,
    rateLimit: { requests, windowSeconds },
    retryAfter,
    dataFile,
  });
  try {
    return await run(sandbox.url);
  } finally {
    await sandbox.close();
  }
}

const governedSync: Sync = async (url, maxPages) => {
  let rateLimited = 0;
  let pagesSeen = 0;
  let count = 0;
  const client = createApiClient({
    baseUrl: url,
    apiKey: API_KEY,
    rateLimit: { requests, windowMs },
    // The default policy, scaled like the window: cool-downs from 1/60 of it up to all of it.
    retry: { rateLimitBackoff: { baseMs: windowMs / 60, maxMs: windowMs } },
    onEvent: (event) => {
      if (event.type === 'rate-limited') rateLimited += 1;
    },
  });
  const started = performance.now();
  for await (const page of client.ipPolicies.pages()) {
    count += page.items.length;
    pagesSeen += 1;
    if (pagesSeen === maxPages) break;
  }
  const elapsedMs = performance.now() - started;
  await client.close();
  return { elapsedMs, rateLimited, requests: pagesSeen + rateLimited, count };
};

const HEADERS = { authorization: `Bearer ${API_KEY}`, [SERVICE_VERSION_HEADER]: SERVICE_VERSION };

/** What other clients do: follow next_page_uri, and on a 429 wait a fixed second and retry. */
const naiveSync: Sync = async (url, maxPages) => {
  let rateLimited = 0;
  let sent = 0;
  let count = 0;
  let pagesSeen = 0;
  let next: string | null = `${url}/ip_policies`;
  const started = performance.now();
  while (next !== null && pagesSeen < maxPages) {
    sent += 1;
    const response = await request(next, { headers: HEADERS });
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
    pagesSeen += 1;
    next = body.next_page_uri;
  }
  const elapsedMs = performance.now() - started;
  return { elapsedMs, rateLimited, requests: sent, count };
};

/**
 * Another program on the same account, with no governor: at the start of every window it spends
 * `share` requests at once. It starts first, so the sync below meets a window already half spent.
 */
async function otherProgram(url: string, share: number) {
  const burst = () =>
    Promise.all(
      Array.from({ length: share }, () =>
        request(`${url}/tunnel_sessions`, { headers: HEADERS }).then((r) => r.body.dump()),
      ),
    );
  await burst();
  // Its 429s and a burst cut short by the sandbox closing are its own business.
  const timer = setInterval(() => void burst().catch(() => undefined), windowMs);
  return () => clearInterval(timer);
}

/** The sync while another program takes half of every window. */
function stormed(sync: Sync): Sync {
  return async (url, maxPages) => {
    const stop = await otherProgram(url, requests - stormShare);
    try {
      return await sync(url, maxPages);
    } finally {
      stop();
    }
  };
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
  const report = (name: string, minimum: number, expected: number, run: Run) =>
    console.log(
      `${name}: ${seconds(run.elapsedMs)}, ratio ${ratio(run.elapsedMs, minimum)}, 429s ${run.rateLimited}, ` +
        `requests ${run.requests}, items ${run.count}${run.count === expected ? '' : ` (expected ${expected})`}`,
    );
  const full = (sync: Sync) => onSandbox(dataFile, true, (url) => sync(url, pages));
  report('governed client', minimumMs, items, await full(governedSync));
  report('naive loop     ', minimumMs, items, await full(naiveSync));

  const stormItems = Math.min(items, stormPages * PAGE_SIZE);
  console.log(
    `429 storm: another program takes ${requests - stormShare} of every window, no Retry-After; ` +
      `${stormPages} pages, physical minimum ${seconds(stormMinimumMs)} (${stormShare} per ${windowSeconds} s)`,
  );
  const storm = (sync: Sync) => onSandbox(dataFile, false, (url) => stormed(sync)(url, stormPages));
  report('governed client', stormMinimumMs, stormItems, await storm(governedSync));
  report('naive loop     ', stormMinimumMs, stormItems, await storm(naiveSync));
} finally {
  await rm(dir, { recursive: true, force: true });
}
