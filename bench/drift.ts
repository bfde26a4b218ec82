/**
 * `npm run bench:drift [-- --quick]`: drift watch's cost and its neighbours' waits.
 *
 * Requests: accounts of 1,000 and 10,000 resources (IP policies, backends, HTTPS edges, routes
 * with an OIDC module and its secret) on a sandbox without the rate limit. A baseline is kept,
 * then the account is checked against it: the requests of a check are printed against the
 * fewest possible (one list page of 100 per kind, routes coming with their edges), with a budget
 * of 1.1×; then one field of one resource is changed through the API and the check must find
 * exactly that field.
 *
 * Waits: the larger account served again with the service's limit (120 a minute), checked once
 * by the watcher while, beside it, a monitor's poll (a background list every 5 s) and a person's
 * click (an interactive list every 5 s) run on the same key's governor. Printed: how much
 * longer each waited than when nothing else runs. The monitor tells an agent offline after two
 * polls that miss it, so a poll late by W delays the offline notice by W at most. Also printed:
 * the main thread's longest stall during the checks, which any call made then waits out.
 *
 * Options: --quick (or BENCH_QUICK=1): accounts of 300 and 1,000 resources.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiClient, type ApiClient } from '../core/api/client.ts';
import { MIN_CHECK_REQUESTS } from '../core/drift/checks.ts';
import { DriftService } from '../core/drift/service.ts';
import type { SecretStore } from '../core/profiles/keychain.ts';
import { profileOwner } from '../core/snapshot/account.ts';
import { SnapshotService } from '../core/snapshot/service.ts';
import { startSandbox } from '../sandbox/index.ts';

const API_KEY = 'bench-drift-key';
const PROFILE = 'prf_benchdrift';
const PAGE = 100;
/** What one block of the seed holds: 10 resources of 5 kinds. */
const BLOCK = 10;

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: process.env['BENCH_QUICK'] === '1' } },
});
const sizes = values.quick ? [300, 1_000] : [1_000, 10_000];

async function seedBlock(api: ApiClient, i: number): Promise<void> {
  await Promise.all(
    [0, 1, 2, 3, 4].map((p) => api.ipPolicies.create({ description: `policy ${i}.${p}` })),
  );
  const backend = await api.httpResponseBackends.create({
    description: `maintenance ${i}`,
    body: 'down',
    status_code: 503,
  });
  await api.credentials.create({ description: `laptop ${i}` });
  const edge = await api.httpsEdges.create({
    description: `www ${i}`,
    hostports: [`www-${i}.example.com:443`],
  });
  await api.httpsEdgeRoutes.create(edge.id, {
    match_type: 'path_prefix',
    match: '/',
    backend: { backend_id: backend.id },
  });
  await api.httpsEdgeRoutes.create(edge.id, {
    match_type: 'exact_path',
    match: '/login',
    oidc: { issuer: 'https://idp.example.com', client_id: `c${i}`, client_secret: `s3cret-${i}` },
  });
}

/** The fewest pages a read of the account takes: each kind listed, routes not (they come with edges). */
function fewestPages(size: number): number {
  const blocks = size / BLOCK;
  const pages = (n: number) => Math.max(1, Math.ceil(n / PAGE));
  const listed = [blocks * 5, blocks, blocks, blocks];
  return MIN_CHECK_REQUESTS - listed.length + listed.reduce((n, k) => n + pages(k), 0);
}

/** The bench keeps its hashing key in memory: no keychain is needed to measure. */
function memorySecrets(): SecretStore {
  const kept = new Map<string, string>();
  return {
    get: async (account) => kept.get(account) ?? null,
    set: async (account, secret) => void kept.set(account, secret),
    delete: async (account) => kept.delete(account),
  };
}

function driftOver(client: ApiClient, dataDir: string): DriftService {
  return new DriftService({
    dataDir,
    secrets: memorySecrets(),
    snapshots: new SnapshotService({ dataDir, holder: 'bench:drift' }),
    // The most the settings allow: the bench checks more often than the watcher would.
    settings: () => ({ intervalMinutes: 15, budgetPercent: 25 }),
    profiles: {
      list: () => [{ id: PROFILE, name: 'Bench' }],
      account: async () => ({
        client,
        apiUrl: 'bench',
        label: 'Bench',
        owner: profileOwner(PROFILE),
      }),
    },
  });
}

let failed = false;
function verdict(ok: boolean, text: string): void {
  if (!ok) failed = true;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
}

/** The check's requests, and the longest one of its pages takes, without the limit. */
async function requestsPerCheck(size: number, dataDir: string, dataFile: string) {
  const sandbox = await startSandbox({ apiKey: API_KEY, rateLimit: 'off', dataFile });
  const api = createApiClient({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    rateLimit: { requests: 1_000_000, windowMs: 1_000 },
  });
  try {
    const started = performance.now();
    for (let i = 0; i < size / BLOCK; i += 20)
      await Promise.all(
        Array.from({ length: Math.min(20, size / BLOCK - i) }, (_, j) => seedBlock(api, i + j)),
      );
    console.log(
      `seeded ${size} resources in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const drift = driftOver(api, dataDir);
    await drift.init();
    const request = { profileId: PROFILE };
    await drift.watch(request);
    const t0 = performance.now();
    const { lastCheck, drift: none } = await drift.check(request);
    const ms = performance.now() - t0;
    const fewest = fewestPages(size);
    const requests = lastCheck?.requests ?? 0;
    verdict(
      none === null && requests <= fewest * 1.1,
      `${size} resources: ${requests} requests a check, fewest ${fewest} (${(requests / fewest).toFixed(2)}×, budget 1.1×), ${ms.toFixed(0)} ms, no drift`,
    );
    const policy = (await api.ipPolicies.list()).ip_policies[0];
    await api.ipPolicies.update(policy?.id ?? '', { description: 'changed outside Burrow' });
    const { drift: found } = await drift.check(request);
    const steps = found?.changes.steps.filter((s) => s.action !== 'unchanged') ?? [];
    const fields = steps.flatMap((s) => s.changes ?? []).map((c) => c.path);
    verdict(
      steps.length === 1 && fields.join() === 'description',
      `${size} resources: one changed field found: ${found?.summary ?? 'nothing'} (${fields.join(', ')})`,
    );
    drift.close();
    // One request slot: the longest a page of the check takes alone (edges come with routes).
    let slot = 0;
    for (const list of ['httpsEdges.list', 'ipPolicies.list', 'credentials.list'] as const) {
      const t = performance.now();
      await api.call(list, { query: { limit: PAGE } });
      slot = Math.max(slot, performance.now() - t);
    }
    return slot;
  } finally {
    await api.close();
    await sandbox.close();
  }
}

/** Milliseconds each call of `call` took, every `everyMs`, until `stop`. */
async function sampled(call: () => Promise<unknown>, everyMs: number, stop: AbortSignal) {
  const waits: number[] = [];
  while (!stop.aborted) {
    const t0 = performance.now();
    await call();
    waits.push(performance.now() - t0);
    await sleep(everyMs, undefined, { signal: stop }).catch(() => undefined);
  }
  return waits;
}

async function waitsBeside(size: number, dataDir: string, dataFile: string, pageMs: number) {
  const sandbox = await startSandbox({ apiKey: API_KEY, dataFile });
  const api = createApiClient({ baseUrl: sandbox.url, apiKey: API_KEY });
  const poll = () => api.call('tunnelSessions.list', { priority: 'background' });
  const click = () => api.call('ipPolicies.list', { query: { limit: 1 } });
  try {
    const idle = { poll: [] as number[], click: [] as number[] };
    for (let i = 0; i < 5; i += 1) {
      let t0 = performance.now();
      await poll();
      idle.poll.push(performance.now() - t0);
      t0 = performance.now();
      await click();
      idle.click.push(performance.now() - t0);
    }
    const drift = driftOver(api, dataDir);
    await drift.init();
    const stop = new AbortController();
    const beside = Promise.all([
      sampled(poll, 5_000, stop.signal),
      sampled(click, 5_000, stop.signal),
    ]);
    const stalls = monitorEventLoopDelay({ resolution: 1 });
    stalls.enable();
    const t0 = performance.now();
    let checks = 0;
    let requests = 0;
    do {
      const { lastCheck } = await drift.check({ profileId: PROFILE });
      if (lastCheck?.error) throw new Error(lastCheck.error);
      checks += 1;
      requests += lastCheck?.requests ?? 0;
    } while (values.quick && checks < 3);
    const checkMs = performance.now() - t0;
    stalls.disable();
    stop.abort();
    const [polls, clicks] = await beside;
    const late = (waits: number[], base: number[]) => Math.max(...waits) - Math.max(...base);
    console.log(
      `${size} resources at 120 a minute: ${checks} checks, ${requests} requests in ${(checkMs / 1000).toFixed(1)} s`,
    );
    // What holds every call, a person's too: the main thread busy (the sandbox serves here too).
    console.log(
      `the main thread's longest stall during the checks: ${(stalls.max / 1e6).toFixed(0)} ms`,
    );
    verdict(
      late(polls, idle.poll) <= 5_000,
      `monitor's poll: at most ${late(polls, idle.poll).toFixed(0)} ms later than alone (${polls.length} polls), so the offline notice at most that much later`,
    );
    verdict(
      late(clicks, idle.click) <= Math.max(1, pageMs),
      `a person's call: at most ${late(clicks, idle.click).toFixed(0)} ms later than alone (${clicks.length} calls; one request slot, the longest page of the check, is ${pageMs.toFixed(0)} ms)`,
    );
    drift.close();
  } finally {
    await api.close();
    await sandbox.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'burrow-bench-drift-'));
try {
  let pageMs = 0;
  for (const size of sizes)
    pageMs = await requestsPerCheck(size, join(dir, String(size)), join(dir, `${size}.json`));
  const largest = sizes.at(-1) ?? 0;
  await waitsBeside(largest, join(dir, String(largest)), join(dir, `${largest}.json`), pageMs);
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
