import type { ActionSource } from '../shared/app/activity.ts';
import type { AppInfo } from '../shared/app/ipc/contract.ts';
import type { DamagedSettings } from '../shared/app/ipc/profiles.ts';
import { activityHandlers, appRecorder } from './activity/handlers.ts';
import { ActivityRecord } from './activity/record.ts';
import { UnseenActivity } from './activity/unseen.ts';
import { agentHandlers } from './agents/handlers.ts';
import { AgentsService } from './agents/service.ts';
import { ipcApiCalls } from './api/ipc-calls.ts';
import { dialogHandlers, unavailableDialogs, type Dialogs } from './dialogs/index.ts';
import type { IpcImplementation } from './ipc/dispatch.ts';
import { ipcErrorOf } from './ipc/dispatch.ts';
import { EventHub } from './ipc/events.ts';
import { startHub } from './hub/server.ts';
import { driftHandlers } from './drift/handlers.ts';
import { keepOwnChanges, startDriftWatch } from './drift/wiring.ts';
import { exposeHandlers } from './expose/handlers.ts';
import { fleetHandlers } from './fleet/handlers.ts';
import { fleetInApp } from './fleet/app.ts';
import type { FleetService } from './fleet/service.ts';
import type { SecretStore } from './profiles/keychain.ts';
import type { StartLocalSandbox } from './profiles/local-sandbox-start.ts';
import { onlyProfiles, profilesInApp } from './profiles/app.ts';
import type { ProfileService, ProfileServiceOptions } from './profiles/profiles.ts';
import { WatchedProfiles } from './monitor/watched.ts';
import { Notifier, type NotifierOptions } from './notify/notifier.ts';
import { sessionHandlers } from './sessions/handlers.ts';
import { SessionsService } from './sessions/service.ts';
import { settingsHandlers } from './settings/handlers.ts';
import { SettingsService } from './settings/settings.ts';
import { snapshotHandlers } from './snapshot/handlers.ts';
import { SnapshotService } from './snapshot/service.ts';
import { HeldSnapshots } from './snapshot/held-snapshots.ts';
import { sshHandlers } from './ssh/handlers.ts';
import { sshInApp } from './ssh/app.ts';
import type { SshService } from './ssh/service.ts';
import type { KeyValueStore } from './store.ts';
import { TrayService } from './tray/service.ts';
import { appUpdates, type AppUpdatesOptions } from './app-updates/app.ts';

export type BurrowOptions = {
  readonly version: string;
  readonly shell: AppInfo['shell'];
  /** The app's data folder: the Local sandbox's data lives under it. */
  readonly dataDir: string;
  readonly store: KeyValueStore;
  readonly secrets: SecretStore;
  readonly startLocalSandbox: StartLocalSandbox;
  readonly client?: ProfileServiceOptions['client'];
  /** How often a Local sandbox another process runs is checked on (0: never, for a command). */
  readonly localSandboxWatchMs?: number;
  /** What `setAsideDamagedSettings` found before the store was opened, for the window to say. */
  readonly damagedSettings?: DamagedSettings | undefined;
  /** The person's home folder: keys go to HOME/.ssh by default. Default os.homedir(). */
  readonly home?: string;
  /** The shell's native dialogs; without them every dialog call answers `unavailable`. */
  readonly dialogs?: Dialogs;
  /**
   * Poll this often whatever the setting says: tests, and `burrow sessions --watch --interval`
   * running alone (the setting's floor of 5 s is for the app's own watching).
   */
  readonly pollIntervalMs?: number;
  /**
   * Tests only: how long an update-and-restart waits between the update and the restart (at
   * least the spec's 10 s), so that a window under load still sees the wait it shows.
   */
  readonly updateSettleMs?: number;
  /** Tests only: the alert rules' wall clock and timer (a faster one makes minutes short). */
  readonly alertClock?: Pick<NotifierOptions, 'now' | 'setTimer'>;
  /** An installed app's updater; without one, the update calls say why there is none. */
  readonly updates?: AppUpdatesOptions;
  /**
   * A `burrow` command's own Burrow, when no app runs to serve it: only the profiles it names
   * are followed (no Local sandbox started for a command on another profile), and none of the
   * app's own schedules run (certificate watches, drift checks, update checks, trims).
   */
  readonly command?: { readonly profileIds: readonly string[] };
  /** Where core tells its events: a command listens before core's first poll. */
  readonly events?: EventHub;
  /**
   * What Burrow tells outside its windows (a damaged file set aside): the app's log by default;
   * a command prints it.
   */
  readonly warn?: (message: string) => void;
  /**
   * Where apply journals and the apply lock live (default `dataDir`): a command on an address
   * keeps them in the person's data folder, beside its throwaway one, so that an apply stopped
   * there is carried on by the next.
   */
  readonly journalsDir?: string;
};

export type Burrow = {
  /** The contract as the window (and browser mode's tab) reaches it. */
  readonly implementation: IpcImplementation;
  /** The same contract for another door: its actions recorded as that door's (`burrow`'s). */
  implementationFor(source: ActionSource): IpcImplementation;
  readonly events: EventHub;
  readonly profiles: ProfileService;
  readonly settings: SettingsService;
  readonly ssh: SshService;
  /** The monitor following the profiles (see docs/monitor.md, "In the app"). */
  readonly watched: WatchedProfiles;
  /** Session actions and muting. */
  readonly sessions: SessionsService;
  /** Agents above their sessions: states, their day, offline ones kept (docs/monitor.md). */
  readonly agents: AgentsService;
  /** Bulk actions and the rolling update, over every profile's agents. */
  readonly fleet: FleetService;
  /** The tray menu as data and its core items, for Electron's tray and browser mode's panel. */
  readonly tray: TrayService;
  /** What to show as notifications, already filtered by the person's settings. */
  readonly notifications: Notifier;
  /** System suspend and resume: no polling while asleep, and a quiet start after. */
  readonly monitor: { pause(): void; resume(): void };
  close(): Promise<void>;
};

/**
 * The main process without Electron: profiles, settings and the API behind the IPC contract.
 * electron/ and web/ build one of these, carry its calls and forward its events; nothing else.
 */
export async function createBurrow(options: BurrowOptions): Promise<Burrow> {
  const events = options.events ?? new EventHub();
  const settings = new SettingsService(options.store);
  settings.onChange((value) => events.emit('settings.changed', value));

  const { profiles, handlers: profileCalls } = await profilesInApp(options, events);

  const command = options.command;
  const watched = new WatchedProfiles({
    profiles: command ? onlyProfiles(profiles, command.profileIds) : profiles,
    settings,
    pollIntervalMs: options.pollIntervalMs,
  });
  const activity = new ActivityRecord(options.dataDir);
  const unseenActivity = new UnseenActivity(activity);
  unseenActivity.onChange((unseen) => events.emit('activity.appended', { unseen }));
  const recorder = appRecorder(activity, unseenActivity, { trim: command === undefined });
  const notifier = new Notifier({
    settings,
    profileNames: () => Object.fromEntries(profiles.state().profiles.map((p) => [p.id, p.name])),
    runSession: (request) => sessions.run(request, { source: 'notification' }),
    mute: (agentKey) => sessions.mute(agentKey, true),
    record: recorder.record,
    ...options.alertClock,
  });
  const sessions = new SessionsService({
    watched,
    client: (profileId) => profiles.client(profileId),
    settings,
    record: recorder.record,
    settleMs: options.updateSettleMs,
  });
  const agents = await AgentsService.open({
    dataDir: options.dataDir,
    watched,
    sessions,
    profiles,
  });
  agents.onChange((snapshot) => events.emit('agents.changed', snapshot));
  const fleet = fleetInApp({ agents, profiles, sessions, record: recorder.record, events });
  const updates = appUpdates(options, command ? undefined : options.updates, settings, events);
  const tray = new TrayService({
    profiles,
    agents,
    watched,
    settings,
    runSession: (request) => sessions.run(request, { source: 'tray' }),
    pauseNotifications: (choice) => notifier.pause(choice),
    rollout: fleet,
    activity: unseenActivity,
    updates: updates.service,
  });
  watched.onEvent((event) => {
    events.emit('monitor.event', event);
    notifier.hear(event);
  });
  watched.onSnapshot((snapshot) => {
    events.emit('sessions.changed', snapshot);
    for (const { profileId, sessions: listed, polls } of snapshot.profiles)
      if (polls > 0) notifier.heardSessions(profileId, listed);
  });
  sessions.onAction((event) => events.emit('sessions.action', event));
  notifier.onNotification((notification) => events.emit('notification', notification));
  tray.onChange((model) => events.emit('tray.changed', model));

  const { ssh, watch: watchCertificates } = sshInApp({
    profiles,
    store: options.store,
    home: options.home,
    events,
    notifier,
    settings,
    ...(options.alertClock?.now && { now: options.alertClock.now }),
  });

  const dialogs = options.dialogs ?? unavailableDialogs;
  const snapshots = new HeldSnapshots({
    service: new SnapshotService({
      dataDir: options.journalsDir ?? options.dataDir,
      holder: options.shell === 'command line' ? 'burrow apply' : 'the Burrow window',
    }),
    profiles,
    dialogs,
    onProgress: (progress) => events.emit('snapshots.progress', progress),
    describe: ipcErrorOf,
    onApplied: (profileId) => drift.applied(profileId),
  });
  const warn = options.warn ?? ((message: string) => console.warn(`Burrow: ${message}`));
  const driftParts = {
    ...{ profiles, settings, notifier, events, snapshots, warn },
    record: recorder.record,
  };
  const drift = await startDriftWatch(options, driftParts, { owner: command === undefined });

  const activeClient = async () => (await profiles.client()).client;
  const api = ipcApiCalls({
    client: activeClient,
    onProgress: (progress) => events.emit('api.progress', progress),
  });
  const own = keepOwnChanges(drift, profiles, api.call);
  const implementationFor = (source: ActionSource): IpcImplementation => ({
    calls: {
      'app.info': () => ({ name: 'Burrow', version: options.version, shell: options.shell }),
      ...profileCalls,
      ...settingsHandlers(settings),
      ...sshHandlers(ssh, events),
      ...sessionHandlers({ sessions, watched, tray, notifier }, source),
      ...activityHandlers(activity, unseenActivity),
      ...snapshotHandlers(snapshots),
      ...agentHandlers(agents),
      ...fleetHandlers(fleet, source),
      ...driftHandlers(drift, snapshots),
      ...exposeHandlers({
        client: activeClient,
        onProgress: (p) => events.emit('expose.progress', p),
        onChanged: own.changed,
      }),
      ...updates.handlers,
      ...dialogHandlers(dialogs),
      'api.cancel': api.cancel,
    },
    call: own.call,
    listAll: api.listAll,
  });

  // `burrow` commands run inside the app while it runs; one that cannot listen (a folder whose
  // socket path is too long, a disk that refuses) leaves them running alone, never the app.
  const hub = command
    ? undefined
    : await startHub({
        dataDir: options.dataDir,
        implementation: implementationFor('command line'),
        events,
      }).catch((error: unknown) => {
        console.warn(`burrow commands will run alone: ${String(error)}`);
        return undefined;
      });

  // Last, after every await: the watches' first check tells at once, to listeners there now.
  const stopSshWatches = command ? () => undefined : watchCertificates();
  return {
    implementation: implementationFor('window'),
    implementationFor,
    events,
    profiles,
    settings,
    ssh,
    watched,
    sessions,
    agents,
    fleet,
    tray,
    notifications: notifier,
    monitor: { pause: () => watched.monitor.pause(), resume: () => watched.monitor.resume() },
    close: async () => {
      await hub?.close();
      stopSshWatches();
      updates.service.close();
      recorder.stop();
      unseenActivity.close();
      notifier.close();
      snapshots.close();
      drift.close();
      api.close();
      tray.close();
      await fleet.close();
      sessions.close();
      await agents.close();
      // The monitor stops before the profiles close its clients.
      await Promise.all([ssh.close(), watched.close()]);
      await profiles.close();
    },
  };
}
