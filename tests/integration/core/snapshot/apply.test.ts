import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { ApiError } from '../../../../core/api/errors.ts';
import {
  applyPlan,
  ApplyBlockedError,
  ApplyStepError,
  type ApplyProgress,
} from '../../../../core/snapshot/apply/apply.ts';
import { exportSnapshot } from '../../../../core/snapshot/export/export.ts';
import { IN_FLIGHT_MS, LOOK_AGAIN_MS } from '../../../../core/snapshot/apply/recover.ts';
import { markStep, openJournal } from '../../../../core/snapshot/apply/journal.ts';
import { changesOf, planSnapshot } from '../../../../core/snapshot/plan/plan.ts';
import { SNAPSHOT_KINDS, type SnapshotDocument } from '../../../../shared/app/snapshot-document.ts';
import { FakeClock } from '../../../support/fake-clock.ts';
import { clientOf, startAccount, startSandbox, type Sandbox } from '../api/support.ts';
import { seedAccount } from './seed.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

let source: Sandbox;
let sourceApi: ApiClient;
let snapshot: SnapshotDocument;
const cleanup = cleanupAfterAll();

const account = (key: string) => startAccount(key, cleanup);

/** Whose apply it is: one account throughout, as the window's and the command's are. */
const WHO = {
  about: { owner: 'profile:test', target: 'Test', source: 'test.json' },
  holder: 'a test',
};

const exportOf = (sandbox: Sandbox, api: ApiClient, withSecrets = true) =>
  exportSnapshot(api, { apiUrl: sandbox.url, withSecrets, now: () => new Date(0) });

async function journalDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'burrow-apply-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The document without what belongs to one account: ids, its address, CA public keys. */
function withoutIds(document: SnapshotDocument) {
  return Object.fromEntries(
    SNAPSHOT_KINDS.map((kind) => [
      kind,
      document.resources[kind].map(({ name, fields, edge }) => ({ name, fields, edge })),
    ]),
  );
}

/** Counts the calls that change something; throws at the `at`-th, before or after sending it. */
function crashing(api: ApiClient, at: number, when: 'before' | 'after') {
  let writes = 0;
  let crashedOn: { name: string; request?: object } | undefined;
  const call = api.call as (name: string, request?: object) => Promise<unknown>;
  const wrapped = async (name: string, request?: object) => {
    if (/\.(get|list)$/.test(name)) return call(name, request);
    writes += 1;
    if (writes === at) crashedOn = { name, request };
    if (writes === at && when === 'before') throw new Error(`crash before call ${at}`);
    const answer = await call(name, request);
    if (writes === at) throw new Error(`crash after call ${at}`);
    return answer;
  };
  return {
    client: { call: wrapped, listAll: api.listAll } as unknown as ApiClient,
    writes: () => writes,
    /** The call it crashed on, to send as the service would still take it. */
    crashedOn: () => crashedOn,
  };
}

/** Both runs of an apply on one test clock: a resumed create's waits pass when the test says. */
const onClock = (clock: FakeClock) => ({ now: () => clock.now(), clock });

beforeAll(async () => {
  ({ sandbox: source, api: sourceApi } = await account('snapshot-source'));
  await seedAccount(sourceApi);
  snapshot = await exportOf(source, sourceApi);
});

describe('apply', () => {
  it('round trip: an empty account given the snapshot exports the same, and plans empty', async () => {
    const { sandbox, api } = await account('snapshot-target');
    const plan = planSnapshot(snapshot, await exportOf(sandbox, api));
    const total = changesOf(plan).length;
    expect(plan.steps.every((s) => s.action === 'create')).toBe(true);
    const progress: ApplyProgress[] = [];
    const dir = await journalDir();
    const result = await applyPlan(api, plan, {
      ...WHO,
      journalDir: dir,
      onProgress: (p) => progress.push(p),
    });
    // Done, the journal goes: it held the plan, secrets and all.
    expect(await readdir(dir)).toEqual([]);
    expect(result).toMatchObject({ created: total, updated: 0, deleted: 0, resumed: false });
    expect(progress.at(-1)).toMatchObject({ done: total, total, step: null, remainingMs: 0 });
    expect(progress[1]?.remainingMs).toEqual(expect.any(Number));

    const copy = await exportOf(sandbox, api);
    expect(withoutIds(copy)).toEqual(withoutIds(snapshot));
    expect(changesOf(planSnapshot(copy, await exportOf(source, sourceApi)))).toEqual([]);
    expect(changesOf(planSnapshot(snapshot, copy))).toEqual([]);

    // Both accounts read the same through the API: the TLS edge falls over to "outer" → "inner".
    for (const api_ of [sourceApi, api]) {
      const [edge] = await api_.tlsEdges.listAll();
      const outer = await api_.failoverBackends.get(edge?.backend?.backend.id ?? '');
      const inner = await api_.failoverBackends.get(outer.backends[0] ?? '');
      expect([outer.description, inner.description]).toEqual(['outer', 'inner']);
      const routes = (await api_.httpsEdges.listAll()).flatMap((e) => e.routes);
      const api_route = routes.find((r) => r.match === '/api');
      expect(
        (await api_.failoverBackends.get(api_route?.backend?.backend.id ?? '')).description,
      ).toBe('inner');
    }
  });

  it('keeps to the rate limit of the service: the governor paces it, with no 429', async () => {
    // The window and the governor on one test clock: the pacing is seen as test time passed.
    const clock = new FakeClock();
    const sandbox = await startSandbox({
      apiKey: 'snapshot-paced',
      rateLimit: { requests: 15, windowSeconds: 1 },
      clock,
    });
    const { client: api, waits } = clientOf(sandbox, {
      rateLimit: { requests: 15, windowMs: 1_000 },
      clock,
    });
    cleanup.push(
      () => sandbox.close(),
      () => api.close(),
    );
    const plan = planSnapshot(snapshot, await clock.runUntil(exportOf(sandbox, api)));
    const started = clock.now();
    const journal = await journalDir();
    await clock.runUntil(applyPlan(api, plan, { ...WHO, journalDir: journal }));
    // More calls than one window admits: the governor held some until it rolled.
    expect(clock.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(withoutIds(await clock.runUntil(exportOf(sandbox, api)))).toEqual(withoutIds(snapshot));
    expect(waits()).toEqual([]);
  });

  it.each([
    [1, 'before'],
    [1, 'after'],
    [9, 'after'],
    [14, 'before'],
    [16, 'after'],
    [19, 'after'],
    [20, 'after'],
    [21, 'after'],
  ] as const)(
    'resumes after a crash at write %i (%s it is sent) without creating anything twice',
    async (at, when) => {
      const { sandbox, api } = await account(`snapshot-crash-${at}-${when}`);
      const dir = await journalDir();
      const crash = crashing(api, at, when);
      const first = planSnapshot(snapshot, await exportOf(sandbox, api));
      const clock = new FakeClock();
      const error = await applyPlan(crash.client, first, {
        ...WHO,
        journalDir: dir,
        ...onClock(clock),
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApplyStepError);
      expect((error as ApplyStepError).done).toHaveLength(at - 1);
      // The plan and its steps' marks, both for the owner only.
      const files = await readdir(dir);
      expect(files).toHaveLength(2);
      expect(files[0]).toMatch(/^apply-[0-9a-f]{16}\.json$/);
      expect(files[1]).toBe(files[0]?.replace(/json$/, 'steps'));
      for (const file of files) expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600);

      // As the command would: a fresh plan against the half-done account, the same journal folder.
      const again = planSnapshot(snapshot, await exportOf(sandbox, api));
      const result = await clock.runUntil(
        applyPlan(api, again, { ...WHO, journalDir: dir, ...onClock(clock) }),
      );
      expect(result.resumed).toBe(true);
      const copy = await exportOf(sandbox, api);
      expect(withoutIds(copy)).toEqual(withoutIds(snapshot));
      expect(changesOf(planSnapshot(snapshot, copy))).toEqual([]);
      // A create whose call had not left was looked for until it could no longer land, then sent.
      if (when === 'before') expect(clock.now()).toBeGreaterThanOrEqual(IN_FLIGHT_MS);
    },
  );

  it('waits for a create an earlier run sent and never heard back from: made late, not twice', async () => {
    const { sandbox, api } = await account('snapshot-in-flight');
    const dir = await journalDir();
    const clock = new FakeClock();
    // The first run marks its first create started and is gone before the service has made it.
    const crash = crashing(api, 1, 'before');
    const first = planSnapshot(snapshot, await exportOf(sandbox, api));
    await expect(
      applyPlan(crash.client, first, { ...WHO, journalDir: dir, ...onClock(clock) }),
    ).rejects.toBeInstanceOf(ApplyStepError);
    const inFlight = crash.crashedOn();
    if (inFlight === undefined) throw new Error('the first run crashed on no call');

    const again = planSnapshot(snapshot, await exportOf(sandbox, api));
    const resumed = applyPlan(api, again, { ...WHO, journalDir: dir, ...onClock(clock) });
    // It looked, found nothing, and waits to look again: only now does the service make it.
    await expect.poll(() => clock.pendingTimers).toBe(1);
    await clock.advance(LOOK_AGAIN_MS - 1);
    expect(clock.pendingTimers).toBe(1);
    await (api.call as (name: string, request?: object) => Promise<unknown>)(
      inFlight.name,
      inFlight.request,
    );
    await clock.advance(1);
    const result = await resumed;
    expect(result.resumed).toBe(true);
    // Found at the second look, half a second after the first: nothing made twice.
    expect(clock.now()).toBe(LOOK_AGAIN_MS);
    const copy = await exportOf(sandbox, api);
    expect(withoutIds(copy)).toEqual(withoutIds(snapshot));
  });

  it('refuses before any call when a module needs a secret the snapshot left out', async () => {
    const { sandbox, api } = await account('snapshot-no-secrets');
    const plan = planSnapshot(
      await exportOf(source, sourceApi, false),
      await exportOf(sandbox, api),
    );
    const counted = crashing(api, Infinity, 'before');
    const dir = await journalDir();
    const error = await applyPlan(counted.client, plan, { ...WHO, journalDir: dir }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApplyBlockedError);
    expect((error as ApplyBlockedError).blockers.map((b) => `${b.name} ${b.field}`)).toEqual([
      'httpsEdgeRoute/www/api webhook_verification.secret',
      'httpsEdgeRoute/www/api oauth.provider.github.client_secret',
      'httpsEdgeRoute/www/login oidc.client_secret',
    ]);
    expect(counted.writes()).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('names a field the API would refuse before any call', async () => {
    const { sandbox, api } = await account('snapshot-invalid');
    const broken = structuredClone(snapshot);
    const [ingress] = broken.resources.agentIngress;
    if (ingress) ingress.fields['domain'] = 'not a domain';
    const plan = planSnapshot(broken, await exportOf(sandbox, api));
    expect(plan.blockers).toEqual([
      { name: 'agentIngress/ingress.example.com', field: 'domain', reason: expect.any(String) },
    ]);
    const counted = crashing(api, Infinity, 'before');
    const error = await applyPlan(counted.client, plan, {
      ...WHO,
      journalDir: await journalDir(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyBlockedError);
    expect((error as Error).message).toMatch(
      /^Nothing was applied: agentIngress\/ingress.example.com domain: /,
    );
    expect(counted.writes()).toBe(0);
  });

  it('waits no longer than for a create sent now when its start is marked in the future', async () => {
    const { sandbox, api } = await account('snapshot-future-mark');
    const dir = await journalDir();
    const clock = new FakeClock();
    const plan = planSnapshot(snapshot, await exportOf(sandbox, api));
    // A journal whose clock ran a day ahead (or this one's set back since): nothing was sent.
    const { journal } = await openJournal(dir, plan, WHO.about);
    const first = plan.steps.findIndex((step) => step.action === 'create');
    await markStep(dir, journal, first, { state: 'started', at: 86_400_000 });
    const result = await clock.runUntil(
      applyPlan(api, plan, { ...WHO, journalDir: dir, ...onClock(clock) }),
    );
    expect(result.resumed).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(IN_FLIGHT_MS);
    expect(clock.now()).toBeLessThan(IN_FLIGHT_MS + LOOK_AGAIN_MS);
    expect(withoutIds(await exportOf(sandbox, api))).toEqual(withoutIds(snapshot));
  });

  it('stops at a failing step with the API error, the step and what was done', async () => {
    const { sandbox, api } = await account('snapshot-failing');
    const twice = structuredClone(snapshot);
    const api_route = twice.resources.httpsEdgeRoute.find(
      (e) => e.name === 'httpsEdgeRoute/www/api',
    );
    if (!api_route) throw new Error('no route');
    twice.resources.httpsEdgeRoute.push({ ...api_route, name: 'httpsEdgeRoute/www/api-again' });
    const plan = planSnapshot(twice, await exportOf(sandbox, api));
    const error = await applyPlan(api, plan, { ...WHO, journalDir: await journalDir() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApplyStepError);
    const failed = error as ApplyStepError;
    expect(failed.step).toMatchObject({ action: 'create', name: 'httpsEdgeRoute/www/api-again' });
    expect(failed.cause).toBeInstanceOf(ApiError);
    expect(failed.cause).toMatchObject({ status: 409 });
    expect(failed.message).toMatch(
      /^create httpsEdgeRoute\/www\/api-again failed after 24 step\(s\) done: /,
    );
    expect(failed.done.map((s) => s.name)).toContain('httpsEdgeRoute/www/api');
  });

  /** A seeded account and its snapshot, then changed: the snapshot applied back undoes it. */
  async function changedAccount(key: string) {
    const { sandbox, api } = await account(key);
    await seedAccount(api);
    const before = await exportOf(sandbox, api);
    const id = (name: string) =>
      SNAPSHOT_KINDS.flatMap((k) => before.resources[k]).find((e) => e.name === name)?.id ?? '';
    await api.ipPolicies.update(id('ipPolicy/office'), { description: 'office (old)' });
    await api.tlsEdges.backend.replace(id('tlsEdge/tls'), {
      backend_id: id('httpResponseBackend/maintenance'),
    });
    await api.tlsEdges.mutual_tls.delete(id('tlsEdge/tls'));
    await api.httpsEdgeRoutes.delete(id('httpsEdge/www'), id('httpsEdgeRoute/www/sso'));
    await api.ipPolicies.create({ description: 'stray' });
    return { sandbox, api, before };
  }

  it.each([
    [0, 'after'],
    [1, 'after'],
    [2, 'before'],
    [3, 'after'],
    [5, 'after'],
    [4, 'after'],
  ] as const)(
    'applied back to its own account (crash at write %i, %s it is sent), it matches by id: updates, creates, prunes',
    async (at, when) => {
      const { sandbox, api, before } = await changedAccount(`snapshot-back-${at}-${when}`);
      const plan = planSnapshot(before, await exportOf(sandbox, api), { prune: true });
      expect(changesOf(plan).map((s) => `${s.action} ${s.name}`)).toEqual([
        'update ipPolicy/office',
        'update tlsEdge/tls',
        'create httpsEdgeRoute/www/sso',
        'delete ipPolicy/stray',
      ]);
      expect(changesOf(plan)[1]).toMatchObject({
        patch: {},
        modules: [{ module: 'backend' }, { module: 'mutual_tls' }],
      });
      const dir = await journalDir();
      if (at > 0) {
        const crash = crashing(api, at, when);
        await expect(applyPlan(crash.client, plan, { ...WHO, journalDir: dir })).rejects.toThrow(
          /crash/,
        );
      }
      const result = await applyPlan(api, plan, { ...WHO, journalDir: dir });
      expect(result).toMatchObject({ created: 1, updated: 2, deleted: 1, resumed: at > 0 });
      const after = await exportOf(sandbox, api);
      expect(withoutIds(after)).toEqual(withoutIds(before));
      const ids = (d: SnapshotDocument) =>
        SNAPSHOT_KINDS.flatMap((k) => d.resources[k])
          .filter((e) => e.name !== 'httpsEdgeRoute/www/sso')
          .map((e) => e.id);
      expect(ids(after)).toEqual(ids(before));
    },
  );
});
