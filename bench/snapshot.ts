/**
 * `npm run bench:snapshot [-- --quick]`: a snapshot's apply and an account's export against a
 * sandbox enforcing the rate limit, each timed against the physical minimum for that limit.
 *
 * Apply: a snapshot of 1,000 resources of every common kind (IP policies, backends of three
 * kinds, TLS and HTTPS edges with modules, routes with modules) to an account that already holds
 * a tenth of its edges and policies with other settings, so that the plan holds creates, patches
 * and module replaces; its requests are counted from the plan. Export: 10,000 such resources.
 * Each account is seeded on a sandbox with the limit off, persisted to its data file, then served
 * again by a sandbox holding the limit for the timed run.
 * At the service's limit the export's 85 pages all fit in the first window, so the limit sets no
 * floor; the same export on a sandbox without the limit is then the floor.
 *
 * Options: --quick (or BENCH_QUICK=1) scales the window and the data down to finish in well
 * under a minute; --items N (resources applied), --export-items N and --limit R/S override
 * either.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiClient, type ApiClient } from '../core/api/client.ts';
import { RateGovernor } from '../core/api/governor.ts';
import { applyPlan, callsOf } from '../core/snapshot/apply/apply.ts';
import { exportSnapshot } from '../core/snapshot/export/export.ts';
import { planSnapshot } from '../core/snapshot/plan/plan.ts';
import { startSandbox } from '../sandbox/index.ts';
import {
  SNAPSHOT_KINDS,
  type SnapshotDocument,
  type SnapshotKind,
} from '../shared/app/snapshot-document.ts';

const API_KEY = 'bench-key';
const PAGE_SIZE = 100;
/** What a block of the seed holds, by kind (see `seedBlock`). */
const PER_BLOCK: Partial<Record<SnapshotKind, number>> = {
  ipPolicy: 3,
  httpResponseBackend: 1,
  tunnelGroupBackend: 1,
  failoverBackend: 1,
  tlsEdge: 1,
  httpsEdge: 1,
  httpsEdgeRoute: 2,
};
const BLOCK = Object.values(PER_BLOCK).reduce((n, k) => n + k, 0);

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: process.env['BENCH_QUICK'] === '1' },
    items: { type: 'string' },
    'export-items': { type: 'string' },
    limit: { type: 'string' },
  },
});
const quick = values.quick;

function refuse(name: string, text: string, wanted: string): never {
  console.error(`bench:snapshot: --${name} must be ${wanted}, not "${text}"`);
  process.exit(1);
}
const positive = (name: string, text: string) => {
  const n = Number(text);
  return n > 0 && Number.isFinite(n) ? n : refuse(name, text, 'a positive number');
};
/** Whole blocks of the seed, at least one, for about that many resources. */
const blocksOf = (name: string, text: string) =>
  Math.max(1, Math.round(positive(name, text) / BLOCK));
const blocks = blocksOf('items', values.items ?? (quick ? '100' : '1000'));
const exportBlocks = blocksOf('export-items', values['export-items'] ?? (quick ? '5000' : '10000'));
const limit = values.limit ?? (quick ? '20/3' : '120/60');
const [requests, windowSeconds] = /^[^/]+\/[^/]+$/.test(limit)
  ? (limit.split('/').map((part) => positive('limit', part)) as [number, number])
  : refuse('limit', limit, 'REQUESTS/SECONDS');
const windowMs = windowSeconds * 1000;
/** The first `requests` go at once; each later batch of `requests` one window after the previous. */
const minimumFor = (calls: number) => Math.floor((Math.max(1, calls) - 1) / requests) * windowMs;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (ms: number, minimum: number) => (minimum === 0 ? 'n/a' : (ms / minimum).toFixed(3));

/**
 * Block `i`: three IP policies, a response, a tunnel group and a failover backend over both, a
 * TLS edge and an HTTPS edge with modules, and two routes with modules. `stale` seeds what an
 * account that drifted holds instead: the policies and edges alike in name, other in settings.
 */
async function seedBlock(api: ApiClient, i: number, stale: boolean): Promise<void> {
  const policies = await Promise.all(
    [0, 1, 2].map((p) =>
      api.ipPolicies.create({
        description: `policy ${i}.${p}`,
        metadata: JSON.stringify({ block: i, stale }),
      }),
    ),
  );
  const ids = policies.map((p) => p.id);
  if (stale) {
    await api.tlsEdges.create({
      description: `tls ${i}`,
      hostports: [`tls-${i}.example.com:443`],
      tls_termination: { terminate_at: 'upstream' },
    });
    await api.httpsEdges.create({
      description: `www ${i}`,
      hostports: [`www-${i}.example.com:443`],
      tls_termination: { min_version: '1.2' },
    });
    return;
  }
  const response = await api.httpResponseBackends.create({
    description: `maintenance ${i}`,
    body: 'down for maintenance',
    status_code: 503,
  });
  const group = await api.tunnelGroupBackends.create({
    description: `group ${i}`,
    labels: { block: String(i) },
  });
  const failover = await api.failoverBackends.create({
    description: `failover ${i}`,
    backends: [group.id, response.id],
  });
  await api.tlsEdges.create({
    description: `tls ${i}`,
    hostports: [`tls-${i}.example.com:443`],
    backend: { backend_id: failover.id },
    ip_restriction: { ip_policy_ids: ids },
    tls_termination: { terminate_at: 'edge', min_version: '1.2' },
  });
  const edge = await api.httpsEdges.create({
    description: `www ${i}`,
    hostports: [`www-${i}.example.com:443`],
    tls_termination: { min_version: '1.3' },
  });
  await api.httpsEdgeRoutes.create(edge.id, {
    match_type: 'path_prefix',
    match: '/api',
    backend: { backend_id: failover.id },
    ip_restriction: { ip_policy_ids: ids.slice(0, 2) },
    compression: { enabled: true },
    request_headers: { add: { 'x-block': String(i) } },
  });
  await api.httpsEdgeRoutes.create(edge.id, {
    match_type: 'exact_path',
    match: '/status',
    backend: { backend_id: response.id },
  });
}

/** A client for a sandbox without a limit: its own window opened to match. */
const unlimitedClient = (url: string) =>
  createApiClient({
    baseUrl: url,
    apiKey: API_KEY,
    governor: new RateGovernor({ limit: { requests: 1e9, windowMs: 1 } }),
    transport: { connections: 16 },
  });

/** A client keeping to the sandbox's limit; the whole window is its own (no person waits). */
function limitedClient(url: string, counter: { rateLimited: number }) {
  return createApiClient({
    baseUrl: url,
    apiKey: API_KEY,
    governor: new RateGovernor({ limit: { requests, windowMs }, backgroundReserve: 0 }),
    // The default policy, scaled like the window: cool-downs from 1/60 of it up to all of it.
    retry: { rateLimitBackoff: { baseMs: windowMs / 60, maxMs: windowMs } },
    onEvent: (event) => {
      if (event.type === 'rate-limited') counter.rateLimited += 1;
    },
  });
}

/** Runs `work` on a sandbox without a limit over `dataFile`, which keeps what it did. */
async function unlimited<T>(dataFile: string, work: (api: ApiClient, url: string) => Promise<T>) {
  const sandbox = await startSandbox({ apiKey: API_KEY, rateLimit: 'off', dataFile });
  const api = unlimitedClient(sandbox.url);
  try {
    return await work(api, sandbox.url);
  } finally {
    await api.close();
    await sandbox.close();
  }
}

/** Seeds blocks `0..count-1` with 32 workers; `stale(i)` says which blocks drifted. */
async function seed(api: ApiClient, count: number, stale: (i: number) => boolean = () => false) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next;
      next += 1;
      await seedBlock(api, i, stale(i));
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

type Timed<T> = { elapsedMs: number; rateLimited: number; value: T };

/**
 * `work` with a client keeping to the limit, on a sandbox over `dataFile` holding it (or not: the
 * same work where nothing but the limit differs).
 */
async function limited<T>(
  dataFile: string,
  work: (api: ApiClient, url: string) => Promise<T>,
  sandboxLimit: 'on' | 'off' = 'on',
): Promise<Timed<T>> {
  const sandbox = await startSandbox({
    apiKey: API_KEY,
    rateLimit: sandboxLimit === 'on' ? { requests, windowSeconds } : 'off',
    dataFile,
  });
  const counter = { rateLimited: 0 };
  const api = limitedClient(sandbox.url, counter);
  try {
    const started = performance.now();
    const value = await work(api, sandbox.url);
    return { elapsedMs: performance.now() - started, rateLimited: counter.rateLimited, value };
  } finally {
    await api.close();
    await sandbox.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'burrow-bench-snapshot-'));
try {
  console.log(
    `bench:snapshot${quick ? ' (quick)' : ''}: apply of ${blocks * BLOCK} resources, ` +
      `export of ${exportBlocks * BLOCK}, limit ${requests} per ${windowSeconds} s`,
  );
  const seedStarted = performance.now();
  const sourceFile = join(dir, 'source.json');
  const targetFile = join(dir, 'target.json');
  const exportFile = join(dir, 'export.json');
  const snapshot = await unlimited(sourceFile, async (api, url) => {
    await seed(api, blocks);
    return exportSnapshot(api, { apiUrl: url, withSecrets: true });
  });
  // A tenth of the blocks drifted in the target; the rest are new to it.
  const target = await unlimited(targetFile, async (api, url) => {
    await seed(api, Math.ceil(blocks / 10), () => true);
    return exportSnapshot(api, { apiUrl: url, withSecrets: true });
  });
  await unlimited(exportFile, (api) => seed(api, exportBlocks));
  console.log(`seeded in ${seconds(performance.now() - seedStarted)} (rate limit off)`);

  const plan = planSnapshot(snapshot, target);
  const count = (action: string) => plan.steps.filter((s) => s.action === action).length;
  const calls = plan.steps.reduce((n, step) => n + callsOf(step), 0);
  const modules = plan.steps.reduce(
    (n, s) => n + (s.action === 'update' ? s.modules.length : 0),
    0,
  );
  const applyMinimum = minimumFor(calls);
  console.log(
    `apply plan: ${count('create')} creates, ${count('update')} updates (${modules} module replaces), ` +
      `${count('unchanged')} unchanged: ${calls} requests, physical minimum ${seconds(applyMinimum)} ` +
      `(first ${requests} at once, then ${requests} per ${windowSeconds} s)`,
  );
  const journalDir = join(dir, 'journal');
  const apply = await limited(targetFile, (api) =>
    applyPlan(api, plan, {
      journalDir,
      about: { owner: 'bench', target: 'bench', source: 'bench' },
      holder: 'bench',
    }),
  );
  const after = await unlimited(targetFile, (api, url) => exportSnapshot(api, { apiUrl: url }));
  const left = planSnapshot(snapshot, after).steps.filter((s) => s.action !== 'unchanged').length;
  console.log(
    `apply: ${seconds(apply.elapsedMs)}, ratio ${ratio(apply.elapsedMs, applyMinimum)}, ` +
      `429s ${apply.rateLimited}, requests ${calls}, changes left after it ${left}`,
  );

  const exported = exportBlocks * BLOCK;
  // Every kind is listed, one page at least; routes come inside their edges.
  const pages = SNAPSHOT_KINDS.filter((k) => k !== 'httpsEdgeRoute').reduce(
    (n, kind) => n + Math.max(1, Math.ceil(((PER_BLOCK[kind] ?? 0) * exportBlocks) / PAGE_SIZE)),
    0,
  );
  const exportAt = (api: ApiClient, url: string) => exportSnapshot(api, { apiUrl: url });
  const pacedMinimum = minimumFor(pages);
  const runs: Timed<SnapshotDocument>[] = [];
  let exportMinimum = pacedMinimum;
  if (pacedMinimum > 0) runs.push(await limited(exportFile, exportAt));
  else {
    // The limit sets no floor: the same export on a sandbox without it is the floor. Both the
    // fastest of 3, taken in turns, each with a fresh window.
    const floors: number[] = [];
    for (let i = 0; i < 3; i++) {
      floors.push((await limited(exportFile, exportAt, 'off')).elapsedMs);
      runs.push(await limited(exportFile, exportAt));
    }
    exportMinimum = Math.min(...floors);
  }
  console.log(
    `export: ${pages} pages of ${PAGE_SIZE}, physical minimum ${seconds(exportMinimum)} ` +
      (pacedMinimum > 0
        ? `(first ${requests} at once, then ${requests} per ${windowSeconds} s)`
        : `(all in the first window's ${requests}: the same export on a sandbox without the limit, fastest of 3)`),
  );
  const fastest = Math.min(...runs.map((r) => r.elapsedMs));
  const rateLimited = runs.reduce((n, r) => n + r.rateLimited, 0);
  const counts = runs.map((r) =>
    SNAPSHOT_KINDS.reduce((n, k) => n + r.value.resources[k].length, 0),
  );
  const wrong = counts.filter((n) => n !== exported);
  console.log(
    `export${runs.length > 1 ? `, fastest of ${runs.length}` : ''}: ${seconds(fastest)}, ` +
      `ratio ${ratio(fastest, exportMinimum)}, 429s ${rateLimited}, resources ${exported}` +
      (wrong.length === 0 ? '' : ` (got ${wrong.join(', ')})`),
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
