import path from 'node:path';
import { escapeControls } from '../shared/app/printable.ts';
import { createApiClient, type ApiClient } from '../core/api/client.ts';
import { keyOwner, profileAccount } from '../core/snapshot/account.ts';
import { ProfileService } from '../core/profiles/profiles.ts';
import type { KeyValueStore } from '../core/store.ts';
import {
  chooseProfile,
  dataDirOf,
  openAppProfiles,
  openSettings,
  type AppProfiles,
} from './app-profiles.ts';
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

/** The reason says who holds the data file when that is why (see LocalSandbox.startOrJoin). */
function localFailure(error: unknown): never {
  const reason = error instanceof Error ? error.message : String(error);
  throw new CliError(`The Local sandbox did not start: ${reason}`);
}

/** The app's profile service over `app`, for the command's duration; clients asked for by id. */
export async function openProfileService(
  app: AppProfiles,
  dataDir: string,
  io: Io,
): Promise<ProfileService> {
  const service = new ProfileService({
    store: app.store,
    secrets: app.secrets,
    localSandboxDir: path.join(dataDir, 'local-sandbox'),
    // A command that uses Burrow's Local sandbox fails plainly if Burrow quits meanwhile.
    localSandboxWatchMs: 0,
    // Loaded only when this process runs the Local sandbox itself, not when it uses the app's.
    startLocalSandbox: async (options) =>
      (await import('../sandbox/embedded.ts')).startEmbeddedSandbox(options),
  });
  await service.init();
  sayLocalWait(service, io);
  return service;
}

/** A command waiting for the Local sandbox's data file says why it is slow (once). */
export function sayLocalWait(service: Pick<ProfileService, 'subscribe'>, io: Io): void {
  let waiting = false;
  service.subscribe(({ local }) => {
    if (waiting || local.state !== 'starting' || local.message === undefined) return;
    waiting = true;
    io.stderr.write(`burrow: ${escapeControls(local.message)}\n`);
  });
}

async function profileTarget(options: Options, io: Io): Promise<Target> {
  const dataDir = dataDirOf(options, io);
  const app = await openAppProfiles(dataDir, io);
  const profile = chooseProfile(app, options.profile);
  // Only this profile's client is asked for: the Local sandbox is used only when the command
  // works on it, Burrow's (or another command's) when it runs one, else one started in this
  // process for the command's duration.
  const service = await openProfileService(app, dataDir, io);
  try {
    const { client } = await service
      .client(profile.id)
      .catch((error: unknown) =>
        profile.kind === 'local' ? localFailure(error) : Promise.reject(error),
      );
    return {
      ...profileAccount(profile, client, `"${profile.name}"`),
      profileId: profile.id,
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
