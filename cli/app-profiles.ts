import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Profile } from '../shared/app/ipc/profiles.ts';
import { defaultDataDir } from '../core/paths.ts';
import { osKeychain, probeKeychain, type SecretStore } from '../core/profiles/keychain.ts';
import { SETTINGS_FILE, setAsideDamagedSettings } from '../core/settings/damaged.ts';
import { openConfStore, type KeyValueStore } from '../core/store.ts';
import type { Options } from './args.ts';
import { CliError, type Io } from './io.ts';

/*
 * The app's data folder and profiles as the command reads them, without an API client or the
 * Local sandbox: `burrow profiles` and completion need no more, and start without loading them.
 */

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
export async function openSettings(dataDir: string, io: Io): Promise<KeyValueStore> {
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

/**
 * Whether each remote profile's key is in the keychain; undefined for all when no keychain
 * answers. Every key found proves the keychain answers; a missing one may mean there is none
 * (reading then answers "no such entry" as if all were well), which only the probe tells.
 */
export async function keysPresent(app: AppProfiles): Promise<Map<string, boolean> | undefined> {
  const remote = app.profiles.filter((p) => p.kind === 'remote');
  const present = await Promise.all(
    remote.map(async (p) => [p.id, (await app.secrets.get(p.id)) !== null] as const),
  ).catch(() => undefined);
  if (present === undefined) return undefined;
  if (present.every(([, found]) => found)) return new Map(present);
  return (await probeKeychain(app.secrets)).available ? new Map(present) : undefined;
}

/** The profile a command names (loosely, by case, when only one matches), or the active one. */
export function chooseProfile(app: AppProfiles, name: string | undefined): Profile {
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
