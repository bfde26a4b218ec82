import type { TunnelSession } from '../../shared/api/tunnel-sessions.ts';
import type { Settings } from '../../shared/ipc/settings.ts';
import type { ProfilesState } from '../../shared/ipc/profiles.ts';
import type { SessionActionRequest, TrayRunResult } from '../../shared/ipc/sessions.ts';
import type { MonitorEvent, MonitorSnapshot } from '../../shared/monitor.ts';
import {
  INITIAL_NOTIFY_STATE,
  type Notification,
  type NotifyPrefs,
  type NotifyState,
} from '../../shared/notifications.ts';
import type { ActionEvent, ActionResult } from '../../shared/session-actions.ts';
import type { TrayAction, TrayItem, TrayModel } from '../../shared/tray.ts';
import type { ApiClient, ApiEvent } from '../api/index.ts';
import type { Clock } from '../api/clock.ts';
import { AppError } from '../errors.ts';
import { createSessionMonitor, type SessionMonitor } from '../monitor/index.ts';
import { notify, pauseUntil } from '../notify/index.ts';
import type { SettingsService } from '../settings/settings.ts';
import { trayMenu } from '../tray/index.ts';
import { createSessionActions } from './actions.ts';

/** What the service needs of the profiles: their list, and each one's single API client. */
export type SessionProfiles = {
  state(): ProfilesState;
  client(id: string): Promise<{ profileId: string; client: ApiClient }>;
  /** The client already made for a profile, if any (it is dropped when the key changes). */
  readyClient(id: string): ApiClient | undefined;
  switch(id: string): ProfilesState;
};

export type SessionsServiceOptions = {
  readonly profiles: SessionProfiles;
  readonly settings: SettingsService;
  readonly clock?: Clock;
  readonly now?: () => number;
  /** Tests only: poll this often whatever the setting says (its floor of 5 s is for people). */
  readonly pollIntervalMs?: number;
};

type Listeners<T> = Set<(value: T) => void>;

function tell<T>(listeners: Listeners<T>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch {
      // One listener's failure (a closed window) does not keep the others from hearing.
    }
  }
}

function findItem(items: readonly TrayItem[], id: string): TrayItem | undefined {
  for (const item of items) {
    if (item.id === id) return item;
    if (item.type === 'submenu') {
      const found = findItem(item.items, id);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The monitor, the notification policy, the session actions and the tray model put together for
 * one app: the monitor follows the profiles and the poll interval, monitor events become
 * notifications under the person's settings, and the tray model is rebuilt whenever any of its
 * inputs changes. Shell-neutral: Electron renders `tray` and `notifications` natively, browser
 * mode through the contract's events.
 */
export class SessionsService {
  readonly monitor: SessionMonitor;
  private readonly options: SessionsServiceOptions;
  private readonly now: () => number;
  /** The clients the monitor polls with, to notice when a profile's client is replaced. */
  private readonly polled = new Map<string, ApiClient>();
  /** Why a profile has no client to poll with (a key missing from the keychain), by id. */
  private readonly unavailable = new Map<string, string>();
  /** Each monitored profile's `onEvent`: the profile's client events go on to the monitor. */
  private readonly apiListeners = new Map<string, (event: ApiEvent) => void>();
  private readonly running = new Set<AbortController>();
  private notifyState: NotifyState = INITIAL_NOTIFY_STATE;
  private unseenOffline = 0;
  private model: TrayModel;
  private closed = false;
  /** Rebuilds the tray when do-not-disturb ends, so that its "resume" item goes by itself. */
  private dndTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly trayListeners: Listeners<TrayModel> = new Set();
  private readonly notificationListeners: Listeners<Notification> = new Set();
  private readonly eventListeners: Listeners<MonitorEvent> = new Set();
  private readonly snapshotListeners: Listeners<MonitorSnapshot> = new Set();
  private readonly actionListeners: Listeners<ActionEvent> = new Set();

  constructor(options: SessionsServiceOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    const { settings } = options;
    this.monitor = createSessionMonitor({
      clock: options.clock,
      now: this.now,
      intervalMs: options.pollIntervalMs ?? settings.get().pollIntervalSeconds * 1000,
      clientFor: (profileId, onEvent) => {
        const client = this.polled.get(profileId);
        if (!client) throw new Error(`No client is ready for profile ${profileId}`);
        this.apiListeners.set(profileId, onEvent);
        // The client is the profile's own, shared with the windows: dropping the profile from
        // the monitor must not close it (ProfileService does, when the profile goes).
        return { ...client, close: async () => undefined };
      },
    });
    this.model = this.buildTray();
    this.monitor.subscribe((event) => this.heard(event));
    this.monitor.onSnapshot(() => this.snapshotChanged());
    settings.subscribe((value) => {
      this.monitor.setIntervalMs(options.pollIntervalMs ?? value.pollIntervalSeconds * 1000);
      this.watchDoNotDisturb(value.doNotDisturbUntil);
      this.trayChanged();
    });
    this.watchDoNotDisturb(settings.get().doNotDisturbUntil);
    this.followProfiles();
  }

  /** Forwarded from the profile's client: how the monitor hears of 429s and retries. */
  apiEvent(profileId: string, event: ApiEvent): void {
    this.apiListeners.get(profileId)?.(event);
  }

  /**
   * Monitors every profile whose client is ready, and asks for the clients of the others (the
   * Local sandbox may still be starting, a key may be missing: that profile waits for the next
   * change). A removed profile, or one whose key changed, stops being polled with the old client.
   */
  followProfiles(): void {
    if (this.closed) return;
    const ids = new Set(this.options.profiles.state().profiles.map((p) => p.id));
    for (const [id, client] of this.polled)
      if (!ids.has(id) || this.options.profiles.readyClient(id) !== client) this.polled.delete(id);
    for (const id of this.unavailable.keys()) if (!ids.has(id)) this.unavailable.delete(id);
    this.applyProfiles();
    const known = (id: string) =>
      !this.closed && this.options.profiles.state().profiles.some((p) => p.id === id);
    for (const id of ids) {
      if (this.polled.has(id)) continue;
      this.options.profiles.client(id).then(
        ({ client }) => {
          this.unavailable.delete(id);
          if (this.polled.has(id) || !known(id)) return;
          this.polled.set(id, client);
          this.applyProfiles();
        },
        (error: unknown) => {
          // Said where the sessions would be, until a change of the profiles tries again.
          if (this.polled.has(id) || !known(id)) return;
          this.unavailable.set(id, error instanceof Error ? error.message : String(error));
          this.snapshotChanged();
        },
      );
    }
    this.trayChanged();
  }

  private applyProfiles(): void {
    for (const id of this.apiListeners.keys())
      if (!this.polled.has(id)) this.apiListeners.delete(id);
    this.monitor.setProfiles([...this.polled.keys()]);
  }

  /** The monitor's snapshot, and the profiles it cannot poll with the reason. */
  snapshot(profileId?: string): MonitorSnapshot {
    const snapshot = this.monitor.snapshot();
    const profiles = [...snapshot.profiles];
    for (const [id, reason] of this.unavailable)
      if (!profiles.some((p) => p.profileId === id))
        profiles.push({
          profileId: id,
          health: 'unavailable',
          healthReason: reason,
          sessions: [],
          lastPollAt: null,
          polls: 0,
          pages: 0,
          intervalMs: 0,
        });
    return {
      ...snapshot,
      profiles:
        profileId === undefined ? profiles : profiles.filter((p) => p.profileId === profileId),
    };
  }

  /** Runs an action on a session the monitor lists; the rules are checked before any call. */
  async run({ profileId, sessionId, action }: SessionActionRequest): Promise<ActionResult> {
    const session = this.findSession(profileId, sessionId);
    if (!session)
      return {
        ok: false,
        action,
        profileId,
        sessionId,
        step: 'check',
        reason: 'The session has ended: the agent is no longer online.',
        errorCode: null,
        operationId: null,
      };
    const { client } = await this.options.profiles.client(profileId);
    const controller = new AbortController();
    this.running.add(controller);
    try {
      return await createSessionActions({
        client,
        profileId,
        clock: this.options.clock,
        monitor: {
          expect: (p, s, command) => {
            // The profile may have been removed while the command was on its way.
            if (this.polled.has(p)) this.monitor.expect(p, s, command);
          },
        },
        onEvent: (event) => tell(this.actionListeners, event),
      }).run(action, session, controller.signal);
    } finally {
      this.running.delete(controller);
    }
  }

  seen(): null {
    this.unseenOffline = 0;
    this.trayChanged();
    return null;
  }

  mute(agentKey: string, muted: boolean): string[] {
    const current = this.options.settings.get().mutedAgents.filter((k) => k !== agentKey);
    const mutedAgents = muted ? [...current, agentKey] : current;
    return this.options.settings.update({ mutedAgents }).mutedAgents;
  }

  pauseNotifications(choice: 'hour' | 'tomorrow' | 'resume'): Settings {
    const until = choice === 'resume' ? null : new Date(pauseUntil(choice, this.now()));
    return this.options.settings.update({ doNotDisturbUntil: until?.toISOString() ?? null });
  }

  /** The tray's model, its changes, and a click on one of its items (by id). */
  readonly tray = {
    model: (): TrayModel => this.model,
    subscribe: (listener: (model: TrayModel) => void): (() => void) =>
      subscribe(this.trayListeners, listener),
    run: (itemId: string): Promise<TrayRunResult> => this.runTrayItem(itemId),
  };

  /** The notifications to show, as the policy decided them; the shell shows them its way. */
  readonly notifications = {
    subscribe: (listener: (notification: Notification) => void): (() => void) =>
      subscribe(this.notificationListeners, listener),
  };

  onMonitorEvent(listener: (event: MonitorEvent) => void): () => void {
    return subscribe(this.eventListeners, listener);
  }

  onSnapshot(listener: (snapshot: MonitorSnapshot) => void): () => void {
    return subscribe(this.snapshotListeners, listener);
  }

  onAction(listener: (event: ActionEvent) => void): () => void {
    return subscribe(this.actionListeners, listener);
  }

  private watchDoNotDisturb(until: string | null): void {
    clearTimeout(this.dndTimer);
    const ms = until ? Date.parse(until) - this.now() : 0;
    if (ms <= 0) return;
    // setTimeout's limit is about 24.8 days; do-not-disturb is at most until tomorrow.
    this.dndTimer = setTimeout(() => this.trayChanged(), Math.min(ms + 1, 2 ** 31 - 1));
    this.dndTimer.unref?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.dndTimer);
    for (const controller of this.running) controller.abort();
    await this.monitor.close();
  }

  private async runTrayItem(itemId: string): Promise<TrayRunResult> {
    const item = findItem(this.model.items, itemId);
    if (!item || item.type === 'separator' || item.type === 'submenu' || !item.action)
      throw new AppError('TRAY_NO_ITEM', `The tray has no item ${JSON.stringify(itemId)} to run`);
    if (!item.enabled)
      throw new AppError('TRAY_DISABLED', item.tooltip ?? `"${item.label}" is not available now`);
    const action: TrayAction = item.action;
    switch (action.name) {
      case 'session.restart':
      case 'session.stop':
      case 'session.update':
      case 'session.update-and-restart': {
        const { profileId, sessionId } = action;
        const name = action.name.slice('session.'.length) as SessionActionRequest['action'];
        return { action, result: await this.run({ profileId, sessionId, action: name }) };
      }
      case 'profile.switch':
        this.options.profiles.switch(action.profileId);
        return { action, result: null };
      case 'notifications.pause':
        this.pauseNotifications(action.for);
        return { action, result: null };
      case 'notifications.resume':
        this.pauseNotifications('resume');
        return { action, result: null };
      default:
        // Copying, opening a window and quitting belong to the shell.
        return { action, result: null };
    }
  }

  private findSession(profileId: string, sessionId: string): TunnelSession | undefined {
    const profile = this.monitor.snapshot().profiles.find((p) => p.profileId === profileId);
    return profile?.sessions.find((s) => s.id === sessionId);
  }

  private heard(event: MonitorEvent): void {
    tell(this.eventListeners, event);
    if (event.kind === 'offline') this.unseenOffline += event.sessions.length;
    const settings = this.options.settings.get();
    const prefs: NotifyPrefs = {
      kinds: settings.notifications,
      mutedAgents: settings.mutedAgents,
      doNotDisturbUntil: settings.doNotDisturbUntil ? Date.parse(settings.doNotDisturbUntil) : null,
    };
    const profileNames = Object.fromEntries(
      this.options.profiles.state().profiles.map((p) => [p.id, p.name]),
    );
    const { notifications, state } = notify({
      events: [event],
      prefs,
      state: this.notifyState,
      now: this.now(),
      profileNames,
    });
    this.notifyState = state;
    for (const notification of notifications) tell(this.notificationListeners, notification);
    if (event.kind === 'offline') this.trayChanged();
  }

  private buildTray(): TrayModel {
    const { profiles, activeId } = this.options.profiles.state();
    const dnd = this.options.settings.get().doNotDisturbUntil;
    return trayMenu({
      profiles: profiles.map((p) => ({ id: p.id, name: p.name, active: p.id === activeId })),
      monitor: this.snapshot(),
      unseenOffline: this.unseenOffline,
      doNotDisturbUntil: dnd ? Date.parse(dnd) : null,
      now: this.now(),
    });
  }

  private snapshotChanged(): void {
    tell(this.snapshotListeners, this.snapshot());
    this.trayChanged();
  }

  private trayChanged(): void {
    const next = this.buildTray();
    if (JSON.stringify(next) === JSON.stringify(this.model)) return;
    this.model = next;
    tell(this.trayListeners, next);
  }
}

function subscribe<T>(listeners: Listeners<T>, listener: (value: T) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
