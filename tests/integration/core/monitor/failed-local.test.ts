import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { Settings } from '../../../../shared/app/ipc/settings.ts';
import { WatchedProfiles } from '../../../../core/monitor/watched.ts';
import { ProfileService } from '../../../../core/profiles/profiles.ts';
import type { StartLocalSandbox } from '../../../../core/profiles/local-sandbox-start.ts';
import { openConfStore } from '../../../../core/store.ts';
import { startSandbox } from '../../../../sandbox/index.ts';
import { testKeychain } from '../profiles/support.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';
import { noSecretService } from '../../../support/secret-service.ts';

/*
 * The monitor asks for a profile's client again at each change of the profiles; a Local sandbox
 * whose start fails changes them itself ("starting", then "failed"). Asked again on that, an app
 * whose sandbox could not start (its data file damaged, the keychain gone) started it again and
 * again, eight times a second, a core busy for as long as it ran.
 */

const cleanup = cleanupAfterAll();

type StoredProfile = { id: string; name: string; baseUrl: string; kind: 'local' | 'remote' };

/** A fresh data folder with `profile` alone, active, and the monitor following its profiles. */
async function watching(profile: StoredProfile, startLocalSandbox: StartLocalSandbox) {
  const secrets = await testKeychain();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-refused-'));
  const store = await openConfStore(dataDir);
  store.set('profiles', [profile]);
  store.set('activeProfileId', profile.id);
  cleanup.push(() => secrets.delete(profile.id));
  const profiles = new ProfileService({
    store,
    secrets,
    startLocalSandbox,
    localSandboxDir: path.join(dataDir, 'local-sandbox'),
  });
  cleanup.push(() => profiles.close());
  await profiles.init();
  const defaults = Settings.parse({});
  const watched = new WatchedProfiles({
    profiles,
    settings: { get: () => defaults, onChange: () => () => undefined },
  });
  cleanup.push(() => watched.close());
  const snapshot = () => watched.snapshot(profile.id).profiles[0];
  return { profiles, snapshot };
}

it('a Local sandbox that cannot start is tried once, then again on a change of the profiles, not on its own failure', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const local = {
    id: 'prf_failedlocal1',
    name: 'Local sandbox',
    baseUrl: '',
    kind: 'local',
  } as const;

  let starts = 0;
  // Fails as a damaged data file does, a turn of the event loop after it was asked.
  const start: StartLocalSandbox = async () => {
    starts += 1;
    await turn();
    throw new Error('data file sandbox.json is not a sandbox state file');
  };
  const { profiles, snapshot } = await watching(local, start);

  await expect.poll(() => snapshot()?.healthReason).toContain('not a sandbox state file');
  // A hundred turns of the event loop, each of which was a start of its own before.
  for (let i = 0; i < 100; i += 1) await turn();
  expect(starts).toBe(1);
  expect(profiles.state().local).toMatchObject({ state: 'failed' });

  // A change of the profiles (here a rename) is a reason to try again: once.
  profiles.rename(local.id, 'Local');
  await expect.poll(() => starts).toBe(2);
  await expect.poll(() => profiles.state().local.state).toBe('failed');
  for (let i = 0; i < 100; i += 1) await turn();
  expect(starts).toBe(2);
});

it('another profile refused (its key not in the keychain) is asked again at any change: its key given, it is polled', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const remote = await startSandbox({ apiKey: 'refused-remote-key', rateLimit: 'off' });
  cleanup.push(() => remote.close());
  const prod = {
    id: 'prf_refusedprod1',
    name: 'Prod',
    baseUrl: remote.url,
    kind: 'remote',
  } as const;
  const { profiles, snapshot } = await watching(prod, () =>
    Promise.reject(new Error('no Local sandbox here')),
  );
  const health = () => snapshot()?.health;

  await expect.poll(health).toBe('unavailable');
  // The state a window sees is the same before and after: only the keychain has changed.
  await profiles.changeKey(prod.id, 'refused-remote-key');
  await expect.poll(health).not.toBe('unavailable');
});
