import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { withoutHashes } from '../../../../core/drift/secrets.ts';
import { profileOwner } from '../../../../core/snapshot/account.ts';
import { changesOf, planSnapshot } from '../../../../core/snapshot/plan/plan.ts';
import { noSecretService } from '../../../support/secret-service.ts';
import { clientOf, startAccount, type Sandbox } from '../api/support.ts';
import { seedAccount } from '../snapshot/seed.ts';
import { driftOver, PROFILE, testClock } from './support.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

/*
 * Drift watch on a real sandbox: changes made through the API directly, not through Burrow, are
 * found, named and told once; Accept and Put back bring the baseline and the account together.
 */

const cleanup = cleanupAfterAll();
let api: ApiClient;
let sandbox: Sandbox;
let watch: Awaited<ReturnType<typeof driftOver>>;
const request = { profileId: PROFILE.id };

beforeAll(async () => {
  ({ api, sandbox } = await startAccount('drift-core', cleanup));
  await seedAccount(api);
  watch = await driftOver(api, cleanup);
});

type Route = { id: string; match: string };
async function www() {
  const edges = await api.httpsEdges.list();
  const edge = edges.https_edges.find((e) => e.description === 'www');
  if (!edge) throw new Error('no www edge');
  const route = (match: string) => {
    const found = (edge.routes as Route[]).find((r) => r.match === match);
    if (!found) throw new Error(`no route ${match}`);
    return { edge_id: edge.id, id: found.id };
  };
  return { edge, route };
}

describe.skipIf(noSecretService !== undefined)('drift watch', () => {
  it('keeps a baseline without a secret in the clear, in a file only its owner reads', async () => {
    const status = await watch.drift.watch(request);
    expect(status).toMatchObject({ watching: true, baselineFrom: 'watch', drift: null });
    const file = join(watch.dataDir, 'drift', `${PROFILE.id}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    for (const secret of ['webhook-s3cret', 'gh-s3cret', 'oidc-s3cret'])
      expect(text).not.toContain(secret);
    expect(text).toContain('hmac-sha256:');
  });

  it('finds nothing, and tells nothing, in 100 checks of an account nobody changed', async () => {
    for (let i = 0; i < 100; i += 1) {
      const status = await watch.drift.check(request);
      expect(status.drift).toBeNull();
      expect(status.lastCheck).toMatchObject({ error: null, requests: 12 });
    }
    expect(watch.told).toEqual([]);
  });

  it('names a create, an update, a module replaced, a delete and a changed secret, told once', async () => {
    const { edge, route } = await www();
    await api.ipPolicies.create({ description: 'new office' });
    await api.httpsEdges.update(edge.id, { description: 'www, edited' });
    await api.call('httpsEdgeRoutes.compression.replace', {
      params: route('/api'),
      body: { enabled: true },
    });
    const ci = (await api.credentials.list()).credentials.find((c) => c.description === 'ci');
    await api.credentials.delete(ci?.id ?? '');
    await api.call('httpsEdgeRoutes.oidc.replace', {
      params: route('/login'),
      body: { issuer: 'https://idp.example.com', client_id: 'burrow', client_secret: 'new-s3cret' },
    });

    const { drift } = await watch.drift.check(request);
    expect(drift?.summary).toBe(
      '1 IP policy created, 1 edge updated, 2 routes updated, 1 tunnel credential deleted',
    );
    const steps = drift?.changes.steps.filter((s) => s.action !== 'unchanged') ?? [];
    expect(steps.map((s) => `${s.action} ${s.kind}`).sort()).toEqual([
      'create ipPolicy',
      'delete credential',
      'update httpsEdge',
      'update httpsEdgeRoute',
      'update httpsEdgeRoute',
    ]);
    const compression = steps.flatMap((s) => s.changes ?? []).find((c) => c.path === 'compression');
    expect(compression).toEqual({
      path: 'compression',
      from: { enabled: false },
      to: { enabled: true },
    });
    expect(drift?.secretsChanged).toEqual([expect.stringMatching(/login/)]);
    expect(JSON.stringify(drift)).not.toContain('new-s3cret');
    expect(watch.told.map((t) => t.id)).toEqual([drift?.id]);

    const again = await watch.drift.check(request);
    expect(again.drift).toMatchObject({ id: drift?.id, foundAt: drift?.foundAt });
    expect(watch.told).toHaveLength(1);
  });

  it('puts the baseline back, naming the secret a hash cannot give back', async () => {
    const baseline = JSON.parse(
      await readFile(join(watch.dataDir, 'drift', `${PROFILE.id}.json`), 'utf8'),
    );
    const planned = await watch.drift.putBack(request);
    expect(planned.blockers).toEqual([]);
    expect(planned.untouched).toEqual([expect.stringMatching(/login.*cannot put it back/)]);
    const outcome = await watch.window.apply({ planId: planned.planId, requestId: 'putback' });
    expect(outcome).toMatchObject({ ok: true });

    // The account is the baseline again, but for the secret nobody can give back.
    const account = { client: api, apiUrl: 'x', label: 'Staging', owner: profileOwner('x') };
    const now = await watch.snapshots.read(account, { withSecrets: false });
    expect(changesOf(planSnapshot(now, withoutHashes(baseline.document), { prune: true }))).toEqual(
      [],
    );
    // The apply moved the baseline to what it applied.
    const status = await watch.drift.check(request);
    expect(status).toMatchObject({ baselineFrom: 'apply', drift: null });
  });

  it('accepts only the drift shown, which then is the baseline', async () => {
    await api.ipPolicies.create({ description: 'accepted' });
    const { drift } = await watch.drift.check(request);
    expect(drift?.summary).toBe('1 IP policy created');
    await expect(
      watch.drift.accept({ ...request, driftId: '0123456789abcdef' }),
    ).rejects.toMatchObject({ code: 'DRIFT_STALE' });
    const accepted = await watch.drift.accept({ ...request, driftId: drift?.id ?? '' });
    expect(accepted).toMatchObject({ baselineFrom: 'accept', drift: null });
    expect((await watch.drift.check(request)).drift).toBeNull();
  });

  it('deletes the baseline of a profile removed', async () => {
    await watch.removeProfile();
    await expect(stat(join(watch.dataDir, 'drift', `${PROFILE.id}.json`))).rejects.toThrow();
    expect(watch.drift.state()).toEqual([]);
  });
});

describe.skipIf(noSecretService !== undefined)("drift watch's budget", () => {
  it('postpones a check that would spend more than its share of the hour, and says so', async () => {
    // 200 in 10 minutes is 1,200 an hour: 1 % is 12 requests, one check's worth.
    const { client } = clientOf(sandbox, { rateLimit: { requests: 200, windowMs: 600_000 } });
    cleanup.push(() => client.close());
    const tight = await driftOver(client, cleanup, {
      settings: () => ({ intervalMinutes: 15, budgetPercent: 1 }),
    });
    await tight.drift.watch(request);
    const watchedAt = tight.clock.now();
    tight.clock.advance(15 * 60_000);
    const postponed = await tight.drift.check(request);
    expect(postponed.lastCheck).toMatchObject({ requests: 0 });
    expect(postponed.lastCheck?.error).toMatch(
      /^Postponed: .* 12 an hour \(1 % of the rate limit\)/,
    );
    expect(postponed.nextCheckAt).toBe(new Date(watchedAt + 3_600_000).toISOString());

    tight.clock.advance(45 * 60_000);
    const checked = await tight.drift.check(request);
    expect(checked.lastCheck).toMatchObject({ requests: 12, error: null });
  });

  /**
   * A watched profile whose key has 120 requests in ten minutes, half of them used: the key's
   * window on a clock the test moves (no real time passes), and the timers it held before.
   */
  async function watchedInBusyWindow() {
    const window = testClock();
    const { client } = clientOf(sandbox, {
      rateLimit: { requests: 120, windowMs: 600_000 },
      clock: window,
    });
    cleanup.push(() => client.close());
    const busy = await driftOver(client, cleanup);
    await busy.drift.watch(request);
    while (client.budget().used < 60) await client.ipPolicies.list();
    return { window, busy, timersBefore: window.pending().length };
  }

  it('waits for room in a busy window on its own timers, and reads once the window has room', async () => {
    const { window, busy, timersBefore } = await watchedInBusyWindow();

    let checked = false;
    const checking = busy.drift.check(request).finally(() => (checked = true));
    // Half the window is the monitor's and the person's: the check waits on the window's clock.
    await vi.waitUntil(() => window.pending().length > timersBefore);
    const [pace] = window.pending().slice(timersBefore);
    expect(pace?.at).toBe(window.now() + 250);
    expect(checked).toBe(false);

    window.advance(600_000);
    pace?.callback();
    expect((await checking).lastCheck).toMatchObject({ requests: 12, error: null });
  });

  it('stops a check waiting for room when an apply ends, and keeps the applied account at once', async () => {
    const { window, busy, timersBefore } = await watchedInBusyWindow();
    const checking = busy.drift.check(request);
    await vi.waitUntil(() => window.pending().length > timersBefore);

    // No clock moves: the apply's baseline does not wait for the check's room in the window.
    await busy.drift.applied(PROFILE.id);
    await checking;
    const status = busy.drift.status(PROFILE.id);
    expect(status).toMatchObject({ baselineFrom: 'apply', drift: null });
    // Stopped, not failed: the check it cut short leaves no error behind.
    expect(status.lastCheck?.error ?? null).toBeNull();
  });

  it('keeps a baseline at once when a person waits on it (Watch, an apply), however busy the window', async () => {
    // 120 requests in ten minutes, of which background work may use 96: all of those used, as a
    // busy while leaves them. A check would wait for room; a baseline a person waits on does not.
    const { client } = clientOf(sandbox, { rateLimit: { requests: 120, windowMs: 600_000 } });
    cleanup.push(() => client.close());
    const busy = await driftOver(client, cleanup);
    while (client.budget().used < 96) await client.ipPolicies.list();
    expect(await busy.drift.watch(request)).toMatchObject({ baselineFrom: 'watch' });
    await busy.drift.applied(PROFILE.id);
    expect(busy.drift.status(PROFILE.id)).toMatchObject({ baselineFrom: 'apply', drift: null });
  });
});

describe.skipIf(noSecretService !== undefined)('drift watch beside the CLI and Settings', () => {
  it('checks against the baseline "burrow drift --set" kept while the app ran', async () => {
    const app = await driftOver(api, cleanup);
    await app.drift.watch(request);
    await api.ipPolicies.create({ description: 'kept from a terminal' });
    // `burrow drift --set`: another service over the same data folder and keychain.
    const cli = await driftOver(api, cleanup, { dataDir: app.dataDir, secrets: app.secrets });
    await cli.drift.watch(request);
    expect((await app.drift.check(request)).drift).toBeNull();
  });

  it('moves the next check at once when the interval changes in Settings', async () => {
    let intervalMinutes = 15;
    const app = await driftOver(api, cleanup, {
      settings: () => ({ intervalMinutes, budgetPercent: 25 }),
    });
    const { baselineAt } = await app.drift.watch(request);
    intervalMinutes = 5;
    app.drift.intervalChanged();
    const due = Date.parse(baselineAt ?? '') + 5 * 60_000;
    expect(app.drift.status(PROFILE.id).nextCheckAt).toBe(new Date(due).toISOString());
    expect(app.clock.pending().map((timer) => timer.at)).toEqual([due]);
  });
});
