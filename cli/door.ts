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
import { checkBaseUrl } from '../core/api/origin.ts';
import { addressProfileId } from '../core/snapshot/account.ts';
import { connectHub } from '../core/hub/client.ts';
import { dispatchIpc } from '../core/ipc/dispatch.ts';
import { EventHub } from '../core/ipc/events.ts';
import type { Burrow, BurrowOptions } from '../core/burrow.ts';
import type { SecretStore } from '../core/profiles/keychain.ts';
import type { ProfileService } from '../core/profiles/profiles.ts';
import type { KeyValueStore } from '../core/store.ts';
import type { Profile } from '../shared/app/ipc/profiles.ts';
import type { Options } from './args.ts';
import {
  chooseProfile,
  dataDirOf,
  openAppProfiles,
  openSettings,
  type AppProfiles,
} from './app-profiles.ts';
import type { MonitorSnapshot } from '../shared/app/monitor.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { CliError, jsonText, type Io } from './io.ts';

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
   * Resolves once the monitor has polled each profile, or knows why it cannot: the app's follows
   * them, but may not have ended its first poll; a command alone polls each once (its monitor
   * starts with what the registry on disk remembers).
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

/** Whether `snapshot` shows each profile polled once, or why it cannot be. */
function settledIn(snapshot: MonitorSnapshot, ids: readonly string[]): boolean {
  return ids.every((id) => {
    const found = snapshot.profiles.find((p) => p.profileId === id);
    return found !== undefined && (found.polls > 0 || SETTLED.has(found.health));
  });
}

/**
 * Resolves once the monitor has polled each profile, or knows why it cannot: at once when `now`
 * shows it, else at the first change that does. Changes are heard from before `now` is asked,
 * so that a poll ending while it is answered is not missed. A monitor `gone` (the app quit)
 * polls no more: the wait ends, and the command's next call says why.
 */
async function firstPolls(
  ids: readonly string[],
  now: () => MonitorSnapshot | Promise<MonitorSnapshot>,
  onChange: (listener: (snapshot: MonitorSnapshot) => void) => () => void,
  gone?: Promise<void>,
): Promise<void> {
  let stop = () => {};
  const settled = new Promise<void>((resolve) => {
    stop = onChange((snapshot) => {
      if (settledIn(snapshot, ids)) resolve();
    });
  });
  try {
    if (!settledIn(await now(), ids)) await Promise.race([settled, ...(gone ? [gone] : [])]);
  } finally {
    stop();
  }
}

/** A Burrow of the command's own, following only `profileIds`, for as long as the command. */
async function ownBurrow(
  parts: Pick<BurrowOptions, 'dataDir' | 'store' | 'secrets' | 'journalsDir'>,
  profileIds: readonly string[],
  options: Options,
  events: EventHub,
  io: Io,
): Promise<Burrow> {
  const { createBurrow } = await import('../core/burrow.ts');
  return createBurrow({
    ...parts,
    events,
    // `burrow sessions --watch --interval N`: the person's own pace for this watch alone.
    ...(options.watch && { pollIntervalMs: options.intervalMs }),
    version: 'command line',
    shell: 'command line',
    // Loaded only when this process runs the Local sandbox itself, not when it uses the app's.
    startLocalSandbox: async (sandbox) =>
      (await import('../sandbox/embedded.ts')).startEmbeddedSandbox(sandbox),
    localSandboxWatchMs: 0,
    ...(io.clock && { client: { clock: io.clock } }),
    command: { profileIds },
    warn: (message) => io.stderr.write(`burrow: ${escapeControls(message)}\n`),
  });
}

/** A command waiting for the Local sandbox's data file says why it is slow (once). */
function sayLocalWait(service: Pick<ProfileService, 'onChange'>, io: Io): void {
  let waiting = false;
  service.onChange(({ local }) => {
    if (waiting || local.state !== 'starting' || local.message === undefined) return;
    waiting = true;
    io.stderr.write(`burrow: ${escapeControls(local.message)}\n`);
  });
}

/** Core's events as a door hears them. */
const onOf =
  (events: EventHub): Door['on'] =>
  (name, listener) =>
    events.onEvent(listenerOf(name, listener));

/**
 * A Burrow of this process for `accounts`, its waits said from its first poll on (its events
 * heard before core starts), closed with `cleanup` after it.
 */
async function ownDoor(
  parts: Pick<BurrowOptions, 'dataDir' | 'store' | 'secrets' | 'journalsDir'>,
  accounts: readonly DoorAccount[],
  options: Options,
  io: Io,
  cleanup: () => Promise<void> = async () => undefined,
): Promise<Door> {
  const events = new EventHub();
  const stopSaying = sayWaits(onOf(events), accounts, options, io);
  const ids = accounts.map((a) => a.profileId);
  let burrow: Burrow;
  try {
    burrow = await ownBurrow(parts, ids, options, events, io);
  } catch (error) {
    stopSaying();
    await cleanup();
    throw error;
  }
  sayLocalWait(burrow.profiles, io);
  const implementation = burrow.implementationFor('command line');
  return {
    via: 'alone',
    call: async (name, ...args) => settleReply(await dispatchIpc(implementation, name, args)),
    on: onOf(events),
    polled: (polledIds) =>
      firstPolls(
        polledIds,
        () => burrow.watched.snapshot(),
        (listener) => burrow.watched.onSnapshot(listener),
      ),
    close: async () => {
      stopSaying();
      await burrow.close().finally(cleanup);
    },
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
    const on: Door['on'] = (name, listener) => hub.onEvent(listenerOf(name, listener));
    const stopSaying = sayWaits(on, accounts, options, io);
    const door: Door = {
      via: 'app',
      call: (name, ...args) => call(name, args) as never,
      on,
      // An app just started may not have ended its first poll: its agents are not listed yet.
      polled: (ids) =>
        firstPolls(
          ids,
          () => door.call('sessions.snapshot'),
          (listener) => on('sessions.changed', listener),
          hub.closed,
        ),
      close: async () => {
        stopSaying();
        hub.close();
      },
    };
    return { door, accounts };
  }
  if (options.verbose) io.stderr.write(`burrow: running alone: ${hub.why}\n`);
  const parts = { dataDir, store: app.store, secrets: app.secrets };
  return { door: await ownDoor(parts, accounts, options, io), accounts };
}

/** Where the app keeps saved SSH certificates: loaded only for `burrow ssh` on an address. */
async function sshCertificatesStore(options: Options, io: Io) {
  const { SAVED_CERTIFICATES_KEY } = await import('../core/ssh/service.ts');
  return { key: SAVED_CERTIFICATES_KEY, store: await openSettings(dataDirOf(options, io), io) };
}

/**
 * The account at `apiUrl` (its key in BURROW_API_KEY) as a profile of a Burrow that lives only
 * as long as the command, in a folder of its own: it is no profile of the app's, so nothing of it
 * (its record, its agents) is kept.
 */
async function addressDoor(
  apiUrl: string,
  options: Options,
  io: Io,
  sshCertificates: boolean,
): Promise<OpenDoor> {
  // Refused as the client would refuse it, before anything starts: the key goes only there.
  checkBaseUrl(apiUrl);
  const apiKey = io.env['BURROW_API_KEY'];
  if (apiKey === undefined || apiKey === '')
    throw new CliError('--api-url needs the API key in the environment variable BURROW_API_KEY');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'burrow-command-'));
  const id = addressProfileId(apiUrl, apiKey);
  const profile: Profile = { id, name: apiUrl, baseUrl: apiUrl, kind: 'remote' };
  const values = new Map<string, unknown>([
    ['profiles', [profile]],
    ['activeProfileId', profile.id],
  ]);
  const memory: KeyValueStore = {
    get: (key) => values.get(key),
    set: (key, value) => values.set(key, value),
    delete: (key) => values.delete(key),
  };
  const kept = sshCertificates ? await sshCertificatesStore(options, io) : undefined;
  const where = (key: string) => (kept && key === kept.key ? kept.store : memory);
  const store: KeyValueStore = {
    get: (key) => where(key).get(key),
    set: (key, value) => where(key).set(key, value),
    delete: (key) => where(key).delete(key),
  };
  const keys = new Map([[profile.id, apiKey]]);
  const secrets: SecretStore = {
    get: async (account) => keys.get(account) ?? null,
    set: async (account, secret) => void keys.set(account, secret),
    delete: async (account) => keys.delete(account),
  };
  const accounts = [{ profileId: profile.id, name: apiUrl }];
  const gone = () => rm(dataDir, { recursive: true, force: true });
  return {
    door: await ownDoor(
      { dataDir, store, secrets, journalsDir: path.resolve(dataDirOf(options, io)) },
      accounts,
      options,
      io,
      gone,
    ),
    accounts,
  };
}

/**
 * Says on stderr when the command's calls wait for an account's rate limit, as the window's
 * header does: once as a wait starts (a call queued with the budget spent, or a 429's cool-down),
 * with its seconds when they are known.
 */
function sayWaits(
  on: Door['on'],
  accounts: readonly DoorAccount[],
  options: Pick<Options, 'json'>,
  io: Io,
): () => void {
  const waiting = new Set<string>();
  const nameOf = (id: string) => accounts.find((a) => a.profileId === id)?.name;
  const say = (profileId: string, ms: number | null) => {
    const name = nameOf(profileId);
    if (name === undefined || waiting.has(profileId)) return;
    waiting.add(profileId);
    const seconds = ms === null ? null : Math.max(1, Math.ceil(ms / 1000));
    // With --json, a program reads the wait as an event; stdout stays the command's one answer.
    if (options.json)
      io.stderr.write(
        `${jsonText({ event: 'waiting', profile: name, seconds, for: 'rate limit' })}\n`,
      );
    else {
      const wait = seconds === null ? '' : ` ${seconds} s`;
      io.stderr.write(escapeControls(`Waiting${wait} for ${name}'s rate limit…`) + '\n');
    }
  };
  const stops = [
    on('governor.changed', (state) => {
      const queued = state.queued.interactive + state.queued.background;
      if (queued === 0) return void waiting.delete(state.profileId);
      const until = state.coolingDownUntil;
      if (state.remaining === 0 || until !== null)
        say(state.profileId, until === null ? null : until - Date.now());
    }),
    on('api.activity', (activity) => {
      if (activity.kind === 'rate-limited') say(activity.profileId, activity.retryInMs);
    }),
    // The monitor does not retry a refused poll: it polls again when the limit allows.
    on('sessions.changed', monitorWaits),
  ];
  function monitorWaits({ profiles }: MonitorSnapshot) {
    for (const { profileId, health, intervalMs } of profiles)
      if (health === 'rate-limited') say(profileId, intervalMs);
      else if (health === 'ok') waiting.delete(profileId);
  }
  return () => {
    for (const stop of stops) stop();
  };
}

export type DoorNeeds = {
  /** Every profile of the app, not only the one the command line names. */
  readonly all?: boolean | undefined;
  /**
   * SSH certificates saved where the app keeps them: on an address too, so that `burrow ssh
   * renew` finds what `burrow ssh new --api-url` saved.
   */
  readonly sshCertificates?: boolean;
};

/**
 * The door for a command: on the account `--api-url` names, or on the app's profile (`--profile`,
 * else the active one), or with `all`, on every profile of the app.
 */
export function openDoor(
  options: Options,
  io: Io,
  { all = false, sshCertificates = false }: DoorNeeds = {},
): Promise<OpenDoor> {
  if (options.apiUrl !== undefined)
    return addressDoor(options.apiUrl, options, io, sshCertificates);
  return appDoor(options, io, (app) =>
    all ? app.profiles : [chooseProfile(app, options.profile)],
  );
}

/**
 * `run` on the one account the command line names, through a door closed after it; `label` is
 * how messages name that account (the profile's name in quotes, or the address). Without an
 * account it fails "There is no profile to `task`".
 */
export async function onTheAccount<T>(
  options: Options,
  io: Io,
  task: string,
  run: (door: Door, account: DoorAccount, label: string) => Promise<T>,
): Promise<T> {
  const { door, accounts } = await openDoor(options, io);
  try {
    const [account] = accounts;
    if (account === undefined) throw new CliError(`There is no profile to ${task}`);
    const label = options.apiUrl === undefined ? `"${account.name}"` : account.name;
    return await run(door, account, label);
  } finally {
    await door.close();
  }
}
