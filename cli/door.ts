import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { settleReply } from '../shared/app/ipc/bridge.ts';
import type {
  IpcArgs,
  IpcCallName,
  IpcEvent,
  IpcEventName,
  IpcEventPayload,
  IpcResult,
} from '../shared/app/ipc/contract.ts';
import { connectHub } from '../core/hub/client.ts';
import { dispatchIpc } from '../core/ipc/dispatch.ts';
import type { Burrow, BurrowOptions } from '../core/burrow.ts';
import type { SecretStore } from '../core/profiles/keychain.ts';
import type { KeyValueStore } from '../core/store.ts';
import type { Profile } from '../shared/app/ipc/profiles.ts';
import type { Options } from './args.ts';
import { chooseProfile, dataDirOf, openAppProfiles, type AppProfiles } from './app-profiles.ts';
import { CliError, type Io } from './io.ts';

/**
 * Burrow as a command reaches it: the window's own contract, served by the running app when
 * there is one (its governors, monitor, record, apply lock and Local sandbox), or by a Burrow the
 * command builds for itself with the same composition root. The command cannot tell which:
 * output, exit codes and `--json` are the same either way; `--verbose` says.
 */
export type Door = {
  readonly via: 'app' | 'alone';
  call<N extends IpcCallName>(name: N, ...args: IpcArgs<N>): Promise<IpcResult<N>>;
  on<E extends IpcEventName>(name: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
  /**
   * The profiles' sessions as of now: the app's monitor already follows them; a command alone
   * polls each once (its monitor starts with what the registry on disk remembers).
   */
  polled(profileIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
};

function listenerOf<E extends IpcEventName>(
  name: E,
  listener: (payload: IpcEventPayload<E>) => void,
) {
  return (event: IpcEvent) => {
    if (event.name === name) listener(event.payload as IpcEventPayload<E>);
  };
}

/** Health that no wait mends: the snapshot says why, and the command says it. */
const SETTLED = new Set(['unreachable', 'unauthorized', 'unavailable']);

/** Resolves once the monitor has polled each profile, or knows why it cannot. */
function firstPolls(burrow: Burrow, ids: readonly string[]): Promise<void> {
  const settled = () =>
    ids.every((id) => {
      const found = burrow.watched.snapshot(id).profiles[0];
      return found !== undefined && (found.polls > 0 || SETTLED.has(found.health));
    });
  return new Promise((resolve) => {
    if (settled()) return resolve();
    const stop = burrow.watched.onSnapshot(() => {
      if (!settled()) return;
      stop();
      resolve();
    });
  });
}

/** A Burrow of the command's own, following only `profileIds`, for as long as the command. */
async function ownBurrow(
  parts: Pick<BurrowOptions, 'dataDir' | 'store' | 'secrets'>,
  profileIds: readonly string[],
  options: Options,
): Promise<Burrow> {
  const { createBurrow } = await import('../core/burrow.ts');
  return createBurrow({
    ...parts,
    // `burrow sessions --watch --interval N`: the person's own pace for this watch alone.
    ...(options.watch && { pollIntervalMs: options.intervalMs }),
    version: 'command line',
    shell: 'command line',
    // Loaded only when this process runs the Local sandbox itself, not when it uses the app's.
    startLocalSandbox: async (sandbox) =>
      (await import('../sandbox/embedded.ts')).startEmbeddedSandbox(sandbox),
    localSandboxWatchMs: 0,
    command: { profileIds },
  });
}

/** The contract served by a Burrow of this process. */
function doorOf(burrow: Burrow, close: () => Promise<void>): Door {
  const implementation = burrow.implementationFor('command line');
  return {
    via: 'alone',
    call: async (name, ...args) => settleReply(await dispatchIpc(implementation, name, args)),
    on: (name, listener) => burrow.events.subscribe(listenerOf(name, listener)),
    polled: (ids) => firstPolls(burrow, ids),
    close,
  };
}

/** The accounts a command works on: their ids and names as the person knows them. */
export type DoorAccount = { readonly profileId: string; readonly name: string };

export type OpenDoor = { readonly door: Door; readonly accounts: readonly DoorAccount[] };

/**
 * The door for a command on the app's profiles `chosen` (the running app's, or its own). Never
 * waits for an app longer than a second: one that is gone or does not prove itself is said with
 * --verbose, and the command goes on alone.
 */
async function appDoor(
  options: Options,
  io: Io,
  choose: (app: AppProfiles) => readonly Profile[],
): Promise<OpenDoor> {
  const dataDir = path.resolve(dataDirOf(options, io));
  const app = await openAppProfiles(dataDir, io);
  const chosen = choose(app);
  const accounts = chosen.map((p) => ({ profileId: p.id, name: p.name }));
  const hub = await connectHub(dataDir);
  if ('call' in hub) {
    if (options.verbose) io.stderr.write('burrow: running inside the Burrow app\n');
    const call = async (name: string, args: readonly unknown[]) =>
      settleReply(await hub.call(name, args));
    const door: Door = {
      via: 'app',
      call: (name, ...args) => call(name, args) as never,
      on: (name, listener) => hub.onEvent(listenerOf(name, listener)),
      polled: async () => undefined,
      close: async () => hub.close(),
    };
    return { door, accounts };
  }
  if (options.verbose) io.stderr.write(`burrow: running alone: ${hub.why}\n`);
  const ids = chosen.map((p) => p.id);
  const parts = { dataDir, store: app.store, secrets: app.secrets };
  const burrow = await ownBurrow(parts, ids, options);
  return { door: doorOf(burrow, () => burrow.close()), accounts };
}

/**
 * The account at `apiUrl` (its key in BURROW_API_KEY) as a profile of a Burrow that lives only
 * as long as the command, in a folder of its own: it is no profile of the app's, so nothing of it
 * (its record, its agents) is kept.
 */
async function addressDoor(apiUrl: string, options: Options, io: Io): Promise<OpenDoor> {
  const apiKey = io.env['BURROW_API_KEY'];
  if (apiKey === undefined || apiKey === '')
    throw new CliError('--api-url needs the API key in the environment variable BURROW_API_KEY');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-command-'));
  const profile: Profile = { id: ADDRESS_PROFILE, name: apiUrl, baseUrl: apiUrl, kind: 'remote' };
  const values = new Map<string, unknown>([
    ['profiles', [profile]],
    ['activeProfileId', profile.id],
  ]);
  const store: KeyValueStore = {
    get: (key) => values.get(key),
    set: (key, value) => values.set(key, value),
    delete: (key) => values.delete(key),
  };
  const keys = new Map([[profile.id, apiKey]]);
  const secrets: SecretStore = {
    get: async (account) => keys.get(account) ?? null,
    set: async (account, secret) => void keys.set(account, secret),
    delete: async (account) => keys.delete(account),
  };
  const gone = () => rm(dataDir, { recursive: true, force: true });
  const burrow = await ownBurrow({ dataDir, store, secrets }, [profile.id], options).catch(
    async (error: unknown) => {
      await gone();
      throw error;
    },
  );
  const door = doorOf(burrow, () => burrow.close().finally(gone));
  return { door, accounts: [{ profileId: profile.id, name: apiUrl }] };
}

/** The id an account given by address has in its command's Burrow. */
export const ADDRESS_PROFILE = 'prf_commandline';

/**
 * The door for a command: on the account `--api-url` names, or on the app's profile (`--profile`,
 * else the active one), or with `all`, on every profile of the app.
 */
export function openDoor(options: Options, io: Io, all = false): Promise<OpenDoor> {
  if (options.apiUrl !== undefined) return addressDoor(options.apiUrl, options, io);
  return appDoor(options, io, (app) =>
    all ? app.profiles : [chooseProfile(app, options.profile)],
  );
}
