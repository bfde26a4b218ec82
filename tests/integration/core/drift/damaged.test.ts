import { execFileSync } from 'node:child_process';
import { mkdir, open, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import type { SecretStore } from '../../../../core/profiles/keychain.ts';
import type { DriftStatus } from '../../../../shared/app/ipc/drift.ts';
import { noSecretService } from '../../../support/secret-service.ts';
import { tempDir } from '../../cli/support.ts';
import { FAST_RETRY, startAccount, type Sandbox } from '../api/support.ts';
import { callerOf, startApp, testKeychain, writeProfiles } from '../profiles/support.ts';
import { seedAccount } from '../snapshot/seed.ts';
import { driftOver, PROFILE } from './support.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

/*
 * A baseline Burrow did not write (damaged, not a file, too big, edited by hand, or kept by a
 * Burrow that did not sign its baselines) stops nothing: the app starts, the file is set aside
 * beside itself, the profile is no longer watched, the person is told once, naming it, and Put
 * back never applies what the file says.
 */

const KEY = 'drift-damaged';
const cleanup = cleanupAfterAll();
let sandbox: Sandbox;
let api: ApiClient;
let keychain: Awaited<ReturnType<typeof testKeychain>>;
const request = { profileId: PROFILE.id };
const baselineOf = (dir: string) => join(dir, 'drift', `${PROFILE.id}.json`);

beforeAll(async () => {
  ({ sandbox, api } = await startAccount(KEY, cleanup));
  await seedAccount(api);
  keychain = await testKeychain();
  await keychain.set(PROFILE.id, KEY);
  cleanup.push(
    () => keychain.delete(PROFILE.id),
    () => keychain.delete('burrow-drift-key'),
  );
});

/** The app on a data folder holding the one profile, on the sandbox. */
async function appOn(dir: string) {
  await writeProfiles(dir, [{ ...PROFILE, baseUrl: sandbox.url }], PROFILE.id);
  const app = await startApp({
    dataDir: dir,
    secrets: keychain,
    client: { retry: FAST_RETRY, rateLimit: { requests: 10_000, windowMs: 60_000 } },
  });
  return { ...app, call: callerOf(app.burrow) };
}

/** A data folder whose baseline the app kept (and signed), the app closed again. */
async function watchedFolder(): Promise<string> {
  const dir = await tempDir(cleanup);
  const app = await appOn(dir);
  await app.call('drift.watch', request);
  await app.burrow.close();
  return dir;
}

type Json = Record<string, unknown>;
type Entry = { name: string; fields: Json };

/** The /login route's OIDC module as a hand edit leaves it: another client, its secret in the clear. */
async function editSecret(file: string): Promise<void> {
  const baseline = JSON.parse(await readFile(file, 'utf8')) as {
    document: { resources: { httpsEdgeRoute: Entry[] } };
  };
  const login = baseline.document.resources.httpsEdgeRoute.find((r) => r.name.endsWith('login'));
  if (!login) throw new Error('no /login route in the baseline');
  login.fields.oidc = {
    ...(login.fields.oidc as Json),
    client_id: 'mallory',
    client_secret: 'mallory-s3cret',
  };
  await writeFile(file, JSON.stringify(baseline));
}

async function loginOidc(): Promise<Json> {
  const edges = await api.httpsEdges.list();
  const www = edges.https_edges.find((e) => e.description === 'www');
  const route = (www?.routes as { match: string; oidc: Json }[] | undefined)?.find(
    (r) => r.match === '/login',
  );
  if (!route) throw new Error('no /login route');
  return route.oidc;
}

/** Names in the drift folder other than the baseline itself. */
async function setAside(dir: string): Promise<string[]> {
  const names = await readdir(join(dir, 'drift')).catch(() => []);
  return names.filter((n) => n !== `${PROFILE.id}.json`);
}

const damages: [string, (file: string) => Promise<void>, RegExp][] = [
  ['not JSON', (file) => writeFile(file, '{"profileId": "prf_staging01", "at": "2026'), /JSON/],
  ['a FIFO', async (file) => void execFileSync('mkfifo', [file]), /not a regular file/],
  [
    'too big',
    async (file) => {
      const handle = await open(file, 'w');
      await handle.truncate(64 << 20);
      await handle.close();
    },
    /bytes/,
  ],
];

describe.skipIf(noSecretService !== undefined)('a damaged baseline at start', () => {
  it.each(damages)(
    '%s: the app starts, the file is set aside, told once',
    async (_, damage, why) => {
      const dir = await tempDir(cleanup);
      await mkdir(join(dir, 'drift'), { recursive: true });
      await damage(baselineOf(dir));

      const app = await appOn(dir);
      const state = (await app.call('drift.state')) as DriftStatus[];
      expect(state).toMatchObject([{ profileId: PROFILE.id, watching: false }]);
      const aside = await setAside(dir);
      expect(aside).toEqual([expect.stringMatching(/^prf_staging01\.damaged-[\dT-]+\.json$/)]);
      const { entries } = (await app.call('activity.list', { kind: 'notice' })) as {
        entries: { profileId: string; title: string; detail: string }[];
      };
      // Of Staging, which Activity names in its Profile column, not in the title.
      expect(entries).toMatchObject([
        { profileId: PROFILE.id, title: 'No longer watched for drift' },
      ]);
      expect(entries[0]?.detail).toMatch(why);
      expect(entries[0]?.detail).toContain(aside[0]);
      await app.burrow.close();

      // Said once: the next start finds nothing to say, and can watch the profile again.
      const again = await appOn(dir);
      const told = (await again.call('activity.list', { kind: 'notice' })) as {
        entries: unknown[];
      };
      expect(told.entries).toHaveLength(1);
      expect(await again.call('drift.watch', request)).toMatchObject({ watching: true });
    },
  );

  it('a link in its place is not followed, even to a baseline Burrow kept', async () => {
    const dir = await watchedFolder();
    const elsewhere = join(dir, 'kept-elsewhere.json');
    await rename(baselineOf(dir), elsewhere);
    await symlink(elsewhere, baselineOf(dir));

    const app = await appOn(dir);
    expect(await app.call('drift.state')).toMatchObject([{ watching: false }]);
    expect(await setAside(dir)).toHaveLength(1);
    const { entries } = (await app.call('activity.list', { kind: 'notice' })) as {
      entries: { profileId: string; title: string; detail: string }[];
    };
    expect(entries).toMatchObject([{ detail: expect.stringMatching(/link/) }]);
  });

  it('an edited secret in the shape of a baseline is not trusted', async () => {
    const dir = await watchedFolder();
    await editSecret(baselineOf(dir));

    const app = await appOn(dir);
    expect(await app.call('drift.state')).toMatchObject([{ watching: false }]);
    expect(await setAside(dir)).toHaveLength(1);
    const { entries } = (await app.call('activity.list', { kind: 'notice' })) as {
      entries: { profileId: string; title: string; detail: string }[];
    };
    expect(entries).toMatchObject([
      {
        profileId: PROFILE.id,
        title: 'No longer watched for drift',
        detail: expect.stringMatching(/changed outside Burrow/),
      },
    ]);
    await expect(app.call('drift.putBack', request)).rejects.toThrow(/DRIFT_NOT_WATCHED/);
    expect(await loginOidc()).toMatchObject({ client_id: 'burrow' });
  });

  it('a baseline of a Burrow that did not sign its baselines is to be kept again, said so', async () => {
    const dir = await watchedFolder();
    const { hmac: _, ...unsigned } = JSON.parse(await readFile(baselineOf(dir), 'utf8')) as Json;
    await writeFile(baselineOf(dir), JSON.stringify(unsigned));

    const app = await appOn(dir);
    expect(await app.call('drift.state')).toMatchObject([{ watching: false }]);
    const { entries } = (await app.call('activity.list', { kind: 'notice' })) as {
      entries: { detail: string }[];
    };
    expect(entries).toMatchObject([{ detail: expect.stringMatching(/older Burrow.*watch/i) }]);
  });
});

describe.skipIf(noSecretService !== undefined)('a baseline edited while the app runs', () => {
  it('is found at the next check: set aside, told, and never put back', async () => {
    const stopped: [string, string][] = [];
    const watch = await driftOver(api, cleanup, {
      stopped: (profileId, message) => stopped.push([profileId, message]),
    });
    await watch.drift.watch(request);
    await editSecret(baselineOf(watch.dataDir));

    const status = await watch.drift.check(request);
    expect(status).toMatchObject({ watching: false, drift: null });
    expect(watch.told).toEqual([]);
    expect(stopped).toEqual([[PROFILE.id, expect.stringMatching(/^Staging .*changed outside/)]]);
    expect(await setAside(watch.dataDir)).toHaveLength(1);
    await expect(watch.drift.putBack(request)).rejects.toMatchObject({
      code: 'DRIFT_NOT_WATCHED',
    });
    expect(await loginOidc()).toMatchObject({ client_id: 'burrow' });
  });

  it('is refused by Put back before any check', async () => {
    const stopped: string[] = [];
    const watch = await driftOver(api, cleanup, {
      stopped: (_, message) => stopped.push(message),
    });
    await watch.drift.watch(request);
    await editSecret(baselineOf(watch.dataDir));

    await expect(watch.drift.putBack(request)).rejects.toMatchObject({
      code: 'DRIFT_NOT_WATCHED',
      message: expect.stringMatching(/Staging .*changed outside Burrow/),
    });
    expect(stopped).toHaveLength(1);
    expect(watch.drift.status(PROFILE.id).watching).toBe(false);
    expect(await loginOidc()).toMatchObject({ client_id: 'burrow' });
  });

  it('is left as it is, and said, when the keychain cannot give the key to check it', async () => {
    const kept = await driftOver(api, cleanup);
    await kept.drift.watch(request);
    // A desktop without a Secret Service: no entry to read, and a new key cannot be kept.
    const noKeychain: SecretStore = {
      get: async () => null,
      set: async () => {
        throw new Error("Couldn't access platform storage: AccessDenied GenericFailure");
      },
      delete: async () => false,
    };
    const stopped: string[] = [];
    const later = await driftOver(api, cleanup, {
      dataDir: kept.dataDir,
      secrets: noKeychain,
      stopped: (_, message) => stopped.push(message),
    });
    expect(later.drift.status(PROFILE.id).watching).toBe(false);
    expect(stopped).toEqual([
      expect.stringMatching(
        /^Staging is not watched for drift this time: .*platform storage.*left as it is/,
      ),
    ]);
    expect(await setAside(kept.dataDir)).toEqual([]);
    expect(await readFile(baselineOf(kept.dataDir), 'utf8')).toContain('"hmac":"');
  });
});
