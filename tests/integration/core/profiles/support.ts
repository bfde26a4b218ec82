import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { createBurrow, type Burrow, type BurrowOptions } from '../../../../core/burrow.ts';
import { dispatchIpc } from '../../../../core/ipc/dispatch.ts';
import { osKeychain, type SecretStore } from '../../../../core/profiles/keychain.ts';
import { openConfStore } from '../../../../core/store.ts';
import type { IpcEvent } from '../../../../shared/app/ipc/contract.ts';
import { startEmbeddedSandbox } from '../../../../sandbox/embedded.ts';
import { checkingResults } from '../../../support/checked-results.ts';
import { FAST_RETRY, startSandbox, type Sandbox } from '../api/support.ts';

/**
 * The real OS keychain (gnome-keyring in `.ci/run`'s D-Bus session), under a service name of
 * this run's own so that tests never touch the entries of the person running them.
 */
export async function testKeychain(): Promise<SecretStore & { service: string }> {
  const service = `burrow-test-${randomBytes(6).toString('hex')}`;
  return { service, ...(await osKeychain(service)) };
}

/** The app's settings file in `dir` as the app leaves it: these profiles, one of them active. */
export async function writeProfiles(
  dir: string,
  profiles: readonly object[],
  activeProfileId: string,
): Promise<void> {
  await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ profiles, activeProfileId }));
}

export type KeychainProfile = {
  readonly sandbox: Sandbox;
  readonly keychain: SecretStore & { service: string };
  /** The data folder, its one profile active. */
  readonly dir: string;
  readonly profile: { id: string; name: 'Staging'; baseUrl: string; kind: 'remote' };
};

/**
 * A sandbox keyed to `apiKey` (no rate limit; seeded, with its demo agents, when `demo`), and a
 * data folder as the app leaves it: one profile "Staging" on that sandbox, its key in a test
 * keychain (under an id of its own). `cleanup` undoes each, last first.
 */
export async function keychainProfile(
  cleanup: (() => Promise<unknown>)[],
  apiKey: string,
  { demo = false }: { demo?: boolean } = {},
): Promise<KeychainProfile> {
  const sandbox = await startSandbox({ apiKey, rateLimit: 'off', demo });
  cleanup.push(() => sandbox.close());
  const keychain = await testKeychain();
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-cli-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const profile = {
    id: `prf_${randomBytes(8).toString('hex')}`,
    name: 'Staging',
    baseUrl: sandbox.url,
    kind: 'remote',
  } as const;
  await writeProfiles(dir, [profile], profile.id);
  await keychain.set(profile.id, apiKey);
  cleanup.push(() => keychain.delete(profile.id));
  return { sandbox, keychain, dir, profile };
}

export type TestApp = {
  burrow: Burrow;
  dataDir: string;
  secrets: SecretStore & { service: string };
  /** Every event core emitted, in order. */
  events: IpcEvent[];
};

const opened: Burrow[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((b) => b.close()));
});
afterAll(async () => {
  await Promise.all(opened.splice(0).map((b) => b.close()));
});

/** Burrow's core as the shells build it: conf on a fresh data folder, the real keychain and sandbox. */
export async function startApp(
  options: Partial<BurrowOptions> & { dataDir?: string } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'burrow-app-')));
  const secrets = (options.secrets as TestApp['secrets'] | undefined) ?? (await testKeychain());
  const events: IpcEvent[] = [];
  const burrow = await createBurrow({
    version: '0.0.0-test',
    shell: 'browser',
    dataDir,
    store: await openConfStore(dataDir),
    secrets,
    startLocalSandbox: startEmbeddedSandbox,
    client: { retry: FAST_RETRY },
    ...options,
  });
  burrow.events.onEvent((event) => events.push(event));
  opened.push(burrow);
  // Every app call a test makes checks its answer against the contract's result schema.
  const checked = { ...burrow, implementation: checkingResults(burrow.implementation) };
  return { burrow: checked, dataDir, secrets, events };
}

/** Contract calls on `burrow` as a window makes them, answering the value; a refusal throws. */
export function callerOf(burrow: Burrow) {
  return async (name: string, ...args: unknown[]) => {
    const reply = await dispatchIpc(burrow.implementation, name, args);
    if (!reply.ok) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
    return reply.value as never;
  };
}

/** Every file under `dir`, with its bytes, for looking for a secret that must not be there. */
export async function filesUnder(dir: string): Promise<{ file: string; text: string }[]> {
  const found: { file: string; text: string }[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && (await stat(file)).size < 64 << 20)
      found.push({ file, text: await readFile(file, 'latin1') });
  }
  return found;
}
