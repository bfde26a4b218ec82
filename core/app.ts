import path from 'node:path';
import { validateBody } from '../shared/api/validate.ts';
import type { ApiCallEntry, ListAllOptions } from '../shared/ipc/api-calls.ts';
import type { AppInfo, GovernorState } from '../shared/ipc/contract.ts';
import type { ApiEvent, BudgetState } from './api/index.ts';
import { dialogHandlers, unavailableDialogs, type Dialogs } from './dialogs/index.ts';
import { AppError } from './errors.ts';
import type { ApiRequestEnvelope, IpcImplementation } from './ipc/dispatch.ts';
import { EventHub } from './ipc/events.ts';
import type { SecretStore } from './profiles/keychain.ts';
import type { StartLocalSandbox } from './profiles/local-sandbox.ts';
import { profileHandlers } from './profiles/handlers.ts';
import { ProfileService, type ProfileServiceOptions } from './profiles/profiles.ts';
import { sessionHandlers } from './sessions/handlers.ts';
import { SessionsService } from './sessions/service.ts';
import { settingsHandlers } from './settings/handlers.ts';
import { sshHandlers, watchRenewals } from './ssh/handlers.ts';
import { createSshService, type SshService } from './ssh/index.ts';
import { SettingsService } from './settings/settings.ts';
import type { KeyValueStore } from './settings/store.ts';

export type BurrowOptions = {
  readonly version: string;
  readonly shell: AppInfo['shell'];
  /** The app's data folder: the Local sandbox's data lives under it. */
  readonly dataDir: string;
  readonly store: KeyValueStore;
  readonly secrets: SecretStore;
  readonly startLocalSandbox: StartLocalSandbox;
  readonly client?: ProfileServiceOptions['client'];
  /** The person's home folder: keys go to HOME/.ssh by default. Default os.homedir(). */
  readonly home?: string;
  /** The shell's native dialogs; without them every dialog call answers `unavailable`. */
  readonly dialogs?: Dialogs;
  /** Tests only: poll this often whatever the setting says (its floor of 5 s is for people). */
  readonly pollIntervalMs?: number;
};

export type Burrow = {
  readonly implementation: IpcImplementation;
  readonly events: EventHub;
  readonly profiles: ProfileService;
  readonly settings: SettingsService;
  readonly ssh: SshService;
  /** The monitor and the rest of sessions (see docs/monitor.md, "In the app"). */
  readonly sessions: SessionsService;
  /** The tray menu as data, for Electron's tray; browser mode reaches it through the contract. */
  readonly tray: SessionsService['tray'];
  /** What to show as notifications, already filtered by the person's settings. */
  readonly notifications: SessionsService['notifications'];
  /** System suspend and resume: no polling while asleep, and a quiet start after. */
  readonly monitor: { pause(): void; resume(): void };
  close(): Promise<void>;
};

/** A key's budget as the header shows it: the cool-down as the wall-clock time it ends. */
export function governorState(
  profileId: string,
  { cooldownMs, ...budget }: BudgetState,
  now = Date.now(),
): GovernorState {
  return { profileId, ...budget, coolingDownUntil: cooldownMs > 0 ? now + cooldownMs : null };
}

/**
 * The main process without Electron: profiles, settings and the API behind the IPC contract.
 * electron/ and web/ build one of these, carry its calls and forward its events; nothing else.
 */
export async function createBurrow(options: BurrowOptions): Promise<Burrow> {
  const events = new EventHub();
  const settings = new SettingsService(options.store);
  settings.subscribe((value) => events.emit('settings.changed', value));
  const lists = new Map<string, AbortController>();
  // Made after the profiles (it needs them); their events reach it as soon as it exists.
  const late: { sessions?: SessionsService } = {};

  const profiles = new ProfileService({
    store: options.store,
    secrets: options.secrets,
    startLocalSandbox: options.startLocalSandbox,
    localSandboxDir: path.join(options.dataDir, 'local-sandbox'),
    client: options.client,
    onChange: (state) => {
      events.emit('profiles.changed', state);
      late.sessions?.followProfiles();
    },
    onApiEvent: (profileId: string, event: ApiEvent) => {
      late.sessions?.apiEvent(profileId, event);
      if (event.type === 'budget') {
        const { type: _, ...budget } = event;
        events.emit('governor.changed', governorState(profileId, budget));
        return;
      }
      const { type: kind, operation, retryInMs, message } = event;
      events.emit('api.activity', { profileId, kind, operation, retryInMs, message });
    },
  });
  await profiles.init();
  const service = new SessionsService({
    profiles,
    settings,
    pollIntervalMs: options.pollIntervalMs,
  });
  late.sessions = service;
  service.onMonitorEvent((event) => events.emit('monitor.event', event));
  service.onSnapshot((snapshot) => events.emit('sessions.changed', snapshot));
  service.onAction((event) => events.emit('sessions.action', event));
  service.notifications.subscribe((notification) => events.emit('notification', notification));
  service.tray.subscribe((model) => events.emit('tray.changed', model));

  // The SSH service asks for a profile's client on each call: the active one to sign, the one
  // that signed a saved certificate to renew it.
  const ssh = createSshService({
    api: async (profileId) => {
      const { profileId: id, client } = await profiles.client(profileId);
      return { profileId: id, api: client };
    },
    store: options.store,
    ...(options.home !== undefined && { home: options.home }),
  });
  const stopRenewalWatch = watchRenewals(ssh, events);

  const implementation: IpcImplementation = {
    calls: {
      'app.info': () => ({ name: 'Burrow', version: options.version, shell: options.shell }),
      ...profileHandlers(profiles),
      ...settingsHandlers(settings),
      ...sshHandlers(ssh, events),
      ...sessionHandlers(service),
      ...dialogHandlers(options.dialogs ?? unavailableDialogs),
      'governor.state': async () => {
        const active = profiles.activeProfile();
        if (!active) return null;
        const { profileId, client } = await profiles.client(active.id);
        return governorState(profileId, client.budget());
      },
      'api.cancel': (requestId) => {
        const controller = lists.get(requestId);
        controller?.abort();
        return controller !== undefined;
      },
    },

    async call(entry: ApiCallEntry, request: ApiRequestEnvelope | undefined) {
      const e = entry.endpoint;
      // Refused before the call, with the code and field the API itself would name.
      if (e.body !== null) {
        const checked = validateBody(e.body, request?.body ?? {});
        if (!checked.ok)
          throw new AppError(checked.error.code, checked.error.msg, checked.error.field);
      }
      const { client } = await profiles.client();
      return client.call(e.name, {
        params: request?.params,
        body: request?.body,
        query: request?.query,
      } as never);
    },

    async listAll(entry: ApiCallEntry, options: ListAllOptions | undefined) {
      const { client } = await profiles.client();
      const controller = new AbortController();
      const requestId = options?.requestId;
      if (requestId !== undefined) {
        lists.get(requestId)?.abort();
        lists.set(requestId, controller);
      }
      try {
        return await client.listAll(entry.endpoint.name as never, {
          query: options?.query,
          signal: controller.signal,
          onProgress: (loaded, pages) => {
            if (requestId !== undefined) events.emit('api.progress', { requestId, loaded, pages });
          },
        });
      } finally {
        if (requestId !== undefined && lists.get(requestId) === controller) lists.delete(requestId);
      }
    },
  };

  return {
    implementation,
    events,
    profiles,
    settings,
    ssh,
    sessions: service,
    tray: service.tray,
    notifications: service.notifications,
    monitor: { pause: () => service.monitor.pause(), resume: () => service.monitor.resume() },
    close: async () => {
      stopRenewalWatch();
      for (const controller of lists.values()) controller.abort();
      // The sessions service stops the monitor before the profiles close its clients.
      await Promise.all([ssh.close(), service.close()]);
      await profiles.close();
    },
  };
}
