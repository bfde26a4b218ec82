import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Profile } from '../shared/app/ipc/profiles.ts';
import { createApiClient, type ApiClient } from '../core/api/index.ts';
import { defaultDataDir } from '../core/paths.ts';
import { keyOwner, profileOwner } from '../core/snapshot/account.ts';
import { snapshotAddress } from '../core/snapshot/address.ts';
import { osKeychain, probeKeychain, type SecretStore } from '../core/profiles/keychain.ts';
import { ProfileService } from '../core/profiles/profiles.ts';
import { SETTINGS_FILE, setAsideDamagedSettings } from '../core/settings/damaged.ts';
import { openConfStore, type KeyValueStore } from '../core/store.ts';
import { startEmbeddedSandbox } from '../sandbox/embedded.ts';
import type { Options } from './args.ts';
import { CliError, type Io } from './io.ts';

/** The account a command works on, and where its journal goes. */
export type Target = {
  readonly client: ApiClient;
  /**
   * The account's address as documents and journals name it. The Local sandbox listens on
   * another port each run, so it is named by its profile: an apply stopped on it resumes.
   */
  readonly apiUrl: string;
  /** For messages: the profile's name, or the address. */
  readonly label: string;
  readonly profileId: string;
  readonly profileName?: string;
  /** Whose apply journals and lock are the command's (see SnapshotAccount): never the key. */
  readonly owner: string;
  readonly dataDir: string;
  /** The app's settings store, where saved SSH certificates are kept. */
  store(): Promise<KeyValueStore>;
  close(): Promise<void>;
};

export function dataDirOf(options: Options, io: Io): string {
  return options.dataDir === undefined
    ? defaultDataDir(io.env)
    : path.resolve(io.cwd, options.dataDir);
}

/** The app's profiles (settings.json) and the keychain; never creates either. */
export type AppProfiles = {
  readonly store: KeyValueStore;
  readonly profiles: readonly Profile[];
  readonly activeId: string | undefined;
  readonly secrets: SecretStore;
};

function noProfiles(dataDir: string): CliError {
  return new CliError(
    `No Burrow profiles in ${dataDir}: start Burrow once (or pass --data-dir), or use ` +
      '--api-url with the key in BURROW_API_KEY',
  );
}

/** The app's settings store, a damaged settings.json set aside first (and said, once, here). */
async function openSettings(dataDir: string, io: Io): Promise<KeyValueStore> {
  const damaged = setAsideDamagedSettings(dataDir);
  if (damaged) io.stderr.write(`burrow: ${damaged.message}\n`);
  return openConfStore(dataDir);
}

export async function openAppProfiles(dataDir: string, io: Io): Promise<AppProfiles> {
  // Opening the store of a folder without one would start a new one; the app makes it first.
  if (!existsSync(path.join(dataDir, SETTINGS_FILE))) throw noProfiles(dataDir);
  const store = await openSettings(dataDir, io);
  // Without them, ProfileService would take this for a first launch and make the Local sandbox.
  if (store.get('profiles') === undefined) throw noProfiles(dataDir);
  const profiles = z.array(Profile).safeParse(store.get('profiles'));
  const active = store.get('activeProfileId');
  return {
    store,
    profiles: profiles.success ? profiles.data : [],
    activeId: typeof active === 'string' ? active : undefined,
    secrets: await osKeychain(io.keychainService),
  };
}

/** Whether each profile's key is in the keychain; undefined for all when no keychain answers. */
export async function keysPresent(app: AppProfiles): Promise<Map<string, boolean> | undefined> {
  if (!(await probeKeychain(app.secrets)).available) return undefined;
  const present = new Map<string, boolean>();
  for (const p of app.profiles) present.set(p.id, (await app.secrets.get(p.id)) !== null);
  return present;
}

function chooseProfile(app: AppProfiles, name: string | undefined): Profile {
  if (name === undefined) {
    const active = app.profiles.find((p) => p.id === app.activeId);
    if (!active) throw new CliError('No profile is active: pass --profile NAME (burrow profiles)');
    return active;
  }
  const exact = app.profiles.filter((p) => p.name === name);
  const loose = app.profiles.filter((p) => p.name.toLowerCase() === name.toLowerCase());
  const found = exact.length === 1 ? exact : loose;
  if (found.length === 1 && found[0]) return found[0];
  throw new CliError(
    found.length === 0
      ? `No profile is named "${name}" ("burrow profiles" lists them)`
      : `${found.length} profiles are named "${name}": rename one in Burrow's Settings`,
  );
}

function localFailure(error: unknown): never {
  const reason = error instanceof Error ? error.message : String(error);
  throw new CliError(
    /in use by another sandbox/.test(reason)
      ? `The Local sandbox is running in Burrow, which has its data: quit Burrow to use it from ` +
          `the command line (${reason})`
      : `The Local sandbox did not start: ${reason}`,
  );
}

/** The app's profile service over `app`, for the command's duration; clients asked for by id. */
export async function openProfileService(
  app: AppProfiles,
  dataDir: string,
): Promise<ProfileService> {
  const service = new ProfileService({
    store: app.store,
    secrets: app.secrets,
    localSandboxDir: path.join(dataDir, 'local-sandbox'),
    startLocalSandbox: startEmbeddedSandbox,
  });
  await service.init();
  return service;
}

async function profileTarget(options: Options, io: Io): Promise<Target> {
  const dataDir = dataDirOf(options, io);
  const app = await openAppProfiles(dataDir, io);
  const profile = chooseProfile(app, options.profile);
  // Only this profile's client is asked for: the Local sandbox starts (in this process, for the
  // command's duration) only when the command works on it.
  const service = await openProfileService(app, dataDir);
  try {
    const { client } = await service
      .client(profile.id)
      .catch((error: unknown) =>
        profile.kind === 'local' ? localFailure(error) : Promise.reject(error),
      );
    return {
      client,
      apiUrl: snapshotAddress(profile),
      label: `"${profile.name}"`,
      profileId: profile.id,
      profileName: profile.name,
      owner: profileOwner(profile.id),
      dataDir,
      store: () => Promise.resolve(app.store),
      close: () => service.close(),
    };
  } catch (error) {
    await service.close();
    throw error;
  }
}

function addressTarget(apiUrl: string, options: Options, io: Io): Target {
  const apiKey = io.env['BURROW_API_KEY'];
  if (apiKey === undefined || apiKey === '')
    throw new CliError('--api-url needs the API key in the environment variable BURROW_API_KEY');
  const client = createApiClient({ baseUrl: apiUrl, apiKey });
  const dataDir = dataDirOf(options, io);
  return {
    client,
    apiUrl,
    label: apiUrl,
    profileId: apiUrl,
    owner: keyOwner(apiUrl, apiKey),
    dataDir,
    store: () => openSettings(dataDir, io),
    close: () => client.close(),
  };
}

/** The profile (by name or the active one) or the address the command line names. */
export async function openTarget(options: Options, io: Io): Promise<Target> {
  return options.apiUrl === undefined
    ? profileTarget(options, io)
    : addressTarget(options.apiUrl, options, io);
}
