import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../core/api/client.ts';
import type { DriftState, DriftStatus } from '../../../shared/app/ipc/drift.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { startAccount, type Sandbox } from '../core/api/support.ts';
import { callerOf, startApp, testKeychain, writeProfiles } from '../core/profiles/support.ts';
import { burrow, oneLine, tempDir } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

/*
 * `burrow drift` against a real sandbox, through the same drift service as the window: the
 * baseline it keeps is the one the app then watches, and while the app runs it checks there.
 */

const cleanup = cleanupAfterAll();
let sandbox: Sandbox;
let api: ApiClient;
let dir: string;
let keychain: Awaited<ReturnType<typeof testKeychain>>;
const profile = { id: 'prf_drift0001', name: 'Staging', baseUrl: '', kind: 'remote' };

const drift = (...argv: string[]) =>
  burrow(['drift', ...argv, '--data-dir', dir], { keychainService: keychain.service });

beforeAll(async () => {
  ({ sandbox, api } = await startAccount('cli-drift', cleanup));
  await api.ipPolicies.create({ description: 'office' });
  await api.httpsEdges.create({ description: 'www', hostports: ['www.example.com:443'] });
  dir = await tempDir(cleanup);
  keychain = await testKeychain();
  await writeProfiles(dir, [{ ...profile, baseUrl: sandbox.url }], profile.id);
  await keychain.set(profile.id, 'cli-drift');
  cleanup.push(
    () => keychain.delete(profile.id),
    () => keychain.delete('burrow-drift-key'),
  );
});

describe.skipIf(noSecretService !== undefined)('burrow drift', () => {
  it('exits 1 without a baseline, 0 once set and nothing changed, 2 with the drift', async () => {
    const none = await drift();
    expect(none.code).toBe(1);
    oneLine(none, '"Staging" has no baseline', 'burrow drift --set');

    expect(await drift('--set')).toMatchObject({ code: 0, stdout: '' });
    expect(await drift()).toMatchObject({
      code: 0,
      stdout: 'No drift: "Staging" matches its baseline.\n',
    });

    const exported = await burrow(['export', '-o', join(dir, 'before.json'), '--data-dir', dir], {
      keychainService: keychain.service,
    });
    expect(exported.code).toBe(0);
    await api.ipPolicies.create({ description: 'new office' });
    const found = await drift();
    expect(found.code).toBe(2);
    expect(found.stdout).toMatch(/^"Staging" drifted from its baseline: 1 IP policy created/);
    expect(found.stdout).toContain('+ create ipPolicy/new-office');

    const json = await drift('--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      target: '"Staging"',
      drift: '1 IP policy created',
      plan: { counts: { create: 1 } },
    });
  });

  it('compares with a snapshot file, which --api-url needs', async () => {
    const key = { BURROW_API_KEY: 'cli-drift' };
    const byAddress = (...argv: string[]) =>
      burrow(['drift', '--api-url', sandbox.url, '--data-dir', dir, ...argv], { env: key });
    const refused = await byAddress();
    expect(refused.code).toBe(1);
    oneLine(refused, '--baseline FILE');
    const file = await byAddress('--baseline', join(dir, 'before.json'), '--json');
    expect(file.code).toBe(2);
    expect(JSON.parse(file.stdout)).toMatchObject({ drift: '1 IP policy created' });
    expect((await byAddress('--baseline', join(dir, 'nowhere.json'))).code).toBe(1);
  });

  it('keeps a baseline the app watches, and the app tells its drift once', async () => {
    const text = await readFile(join(dir, 'drift', `${profile.id}.json`), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ profileId: profile.id, from: 'watch' });
    const { burrow: app, events } = await startApp({ dataDir: dir, secrets: keychain });
    const call = callerOf(app);
    const state: DriftState = await call('drift.state');
    expect(state).toMatchObject([{ profileId: profile.id, watching: true }]);
    // While the app runs, the command checks inside it: the app's watch finds (and tells) it.
    const inside = await drift('--verbose');
    expect(inside.code, inside.stderr).toBe(2);
    expect(inside.stderr).toContain('running inside the Burrow app');

    const checked: DriftStatus = await call('drift.check', { profileId: profile.id });
    expect(checked.drift?.summary).toBe('1 IP policy created');
    await call('drift.check', { profileId: profile.id });
    const notices = events.filter((e) => e.name === 'notification');
    expect(notices).toMatchObject([
      { payload: { kind: 'drift', title: 'Staging changed outside Burrow: 1 IP policy created' } },
    ]);
    expect(events.some((e) => e.name === 'drift.changed')).toBe(true);
    const activity = await call('activity.list', { kind: 'notice' });
    expect(activity).toMatchObject({
      entries: [{ notice: 'drift', detail: '1 IP policy created' }],
    });
  });

  it('names the profile and the file of a damaged baseline, sets it aside, and says so once', async () => {
    const file = join(dir, 'drift', `${profile.id}.json`);
    await writeFile(file, '{"profileId": "prf_drift0001", "at": "2026');
    const damaged = await drift();
    expect(damaged.code).toBe(1);
    const [told, ...rest] = damaged.stderr.split('\n').filter(Boolean);
    expect(told).toMatch(/^burrow: Staging is no longer watched for drift: its baseline /);
    expect(told).toContain(file);
    expect(told).toMatch(/set aside as .*prf_drift0001\.damaged-[\dT-]+\.json/);
    expect(rest).toEqual([expect.stringContaining('"Staging" has no baseline')]);

    const again = await drift();
    oneLine(again, '"Staging" has no baseline');
  });
});
