import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { setAsideDamagedSettings } from '../../../../core/settings/damaged.ts';
import type { ProfilesState } from '../../../../shared/app/ipc/profiles.ts';
import type { Settings } from '../../../../shared/app/ipc/settings.ts';
import { callerOf, startApp, testKeychain } from './support.ts';
import { LOCAL_PROFILE as LOCAL, REMOTE_PROFILE as PROD } from '../../../support/profiles.ts';

/*
 * Core as the shells build it on a data folder whose settings.json is damaged: the file set
 * aside before the store is opened, then the app, which says so in the profiles' state.
 */

async function damagedFolder(text: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-app-'));
  await writeFile(path.join(dataDir, 'settings.json'), text);
  const damagedSettings = setAsideDamagedSettings(dataDir);
  return { dataDir, damagedSettings };
}

it('starts on the profiles recovered, default settings, the keys untouched, and says so', async () => {
  const secrets = await testKeychain();
  await secrets.set(PROD.id, 'prod-key-untouched');
  const { dataDir, damagedSettings } = await damagedFolder(
    `{"profiles":[${JSON.stringify(LOCAL)},${JSON.stringify(PROD)}],"activeProfileId":"${LOCAL.id}","settings":{"theme":"dark",`,
  );
  const app = await startApp({ dataDir, secrets, damagedSettings });
  const call = callerOf(app.burrow);
  const state: ProfilesState = await call('profiles.state');
  expect(state.profiles.map((p) => p.id)).toEqual([LOCAL.id, PROD.id]);
  expect(state.activeId).toBe(LOCAL.id);
  expect(state.damagedSettings?.file).toMatch(/settings\.damaged-[\dT-]+\.json$/);
  expect(state.damagedSettings?.message).toContain(state.damagedSettings?.file);
  const settings: Settings = await call('settings.get');
  expect(settings.theme).toBe('system');
  // The recovered Local profile runs its sandbox, and the remote key is where it was.
  await expect(call('api.tunnelSessions.listAll')).resolves.toBeInstanceOf(Array);
  expect(await secrets.get(PROD.id)).toBe('prod-key-untouched');
  await secrets.delete(PROD.id);
  await secrets.delete(LOCAL.id);
});

it('with nothing to recover, starts as on a first launch: the Local sandbox, active', async () => {
  const { dataDir, damagedSettings } = await damagedFolder('not json at all');
  expect(damagedSettings?.message).toContain('no profile could be recovered');
  const app = await startApp({ dataDir, damagedSettings });
  const state: ProfilesState = await callerOf(app.burrow)('profiles.state');
  expect(state.profiles).toEqual([expect.objectContaining({ kind: 'local' })]);
  expect(state.activeId).toBe(state.profiles[0]?.id);
  expect(state.damagedSettings).toEqual(damagedSettings);
});
