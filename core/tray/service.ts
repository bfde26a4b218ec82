import { Emitter } from '../../shared/app/emitter.ts';
import type { Rollout } from '../../shared/app/fleet.ts';
import type { ConfirmRequest } from '../../shared/app/ipc/dialogs.ts';
import type { ProfilesState } from '../../shared/app/ipc/profiles.ts';
import type { SessionActionRequest, TrayRunResult } from '../../shared/app/ipc/sessions.ts';
import type { Settings } from '../../shared/app/ipc/settings.ts';
import type { UpdateState } from '../../shared/app/ipc/updates.ts';
import type { MonitorEvent, MonitorSnapshot } from '../../shared/app/monitor.ts';
import type { ActionResult } from '../../shared/app/sessions/actions.ts';
import { findTrayItem, type TrayModel } from '../../shared/app/tray.ts';
import { AppError } from '../errors.ts';
import { trayModel, type TrayState } from './model.ts';

/** What the tray reads and what its core items do, as the composition hands them over. */
export type TrayServiceOptions = {
  readonly profiles: {
    state(): ProfilesState;
    onChange(listener: (state: ProfilesState) => void): () => void;
    switch(id: string): ProfilesState;
  };
  /** Each profile's agents (an `AgentsSnapshot`), and their changes. */
  readonly agents: {
    snapshot(): TrayState['agents'];
    onChange(listener: () => void): () => void;
  };
  /** The monitor as the app follows the profiles (core/monitor/watched.ts): health and events. */
  readonly watched: {
    snapshot(): MonitorSnapshot;
    onSnapshot(listener: (snapshot: MonitorSnapshot) => void): () => void;
    onEvent(listener: (event: MonitorEvent) => void): () => void;
  };
  readonly runSession: (request: SessionActionRequest) => Promise<ActionResult>;
  readonly settings: {
    get(): Settings;
    onChange(listener: (settings: Settings) => void): () => void;
  };
  readonly pauseNotifications: (choice: 'hour' | 'tomorrow' | 'resume') => unknown;
  /** The fleet's rolling update: its line at the top, and the question before quitting. */
  readonly rollout?: {
    rolloutState(): Pick<Rollout, 'state' | 'line'> | null;
    quitQuestion(): ConfirmRequest | null;
    onChange(listener: () => void): () => void;
  };
  /** The activity since the Activity screen was last seen (core/activity/unseen.ts). */
  readonly activity: {
    unseen(): number;
    onChange(listener: (unseen: number) => void): () => void;
  };
  /** Burrow's own update: "Restart to update" once one is ready, and its install. */
  readonly updates?: {
    state(): UpdateState;
    onChange(listener: (state: UpdateState) => void): () => void;
    install(): unknown;
  };
  readonly now?: () => number;
};

/**
 * The tray for both shells: its model, rebuilt whenever the profiles, the agents, the monitor's
 * snapshot, the settings, the unseen offline agents or the unseen activity change (and when do-not-disturb ends, so
 * that its "resume" item goes by itself), and the core half of its items, run by id against the
 * model.
 * The model's items say who runs them and what to ask first; the shells follow that data.
 */
export class TrayService {
  private readonly options: TrayServiceOptions;
  private readonly now: () => number;
  private readonly changes = new Emitter<TrayModel>('the tray');
  private readonly stops: (() => void)[];
  private unseenOffline = 0;
  private current: TrayModel;
  /** `current` serialised, to compare each rebuild with without serialising it again. */
  private currentJson: string;
  private dndTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: TrayServiceOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.current = this.build();
    this.currentJson = JSON.stringify(this.current);
    this.stops = [
      options.profiles.onChange(() => this.changed()),
      options.watched.onSnapshot(() => this.changed()),
      options.agents.onChange(() => this.changed()),
      options.rollout?.onChange(() => this.changed()) ?? (() => undefined),
      options.watched.onEvent((event) => {
        if (event.kind !== 'offline') return;
        this.unseenOffline += event.sessions.length;
        this.changed();
      }),
      options.activity.onChange(() => this.changed()),
      options.updates?.onChange(() => this.changed()) ?? (() => undefined),
      options.settings.onChange((value) => {
        this.watchDoNotDisturb(value.doNotDisturbUntil);
        this.changed();
      }),
    ];
    this.watchDoNotDisturb(options.settings.get().doNotDisturbUntil);
  }

  model(): TrayModel {
    return this.current;
  }

  onChange(listener: (model: TrayModel) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** The person looked at the Sessions screen: the tray stops asking for attention. */
  seen(): null {
    this.unseenOffline = 0;
    this.changed();
    return null;
  }

  /** Runs a core item of the current model by its id; the shell's own items are the shell's. */
  async run(itemId: string): Promise<TrayRunResult> {
    const item = findTrayItem(this.current.items, itemId);
    if (!item || item.type === 'separator' || item.type === 'submenu' || !item.action)
      throw new AppError('TRAY_NO_ITEM', `The tray has no item ${JSON.stringify(itemId)} to run`);
    if (!item.enabled)
      throw new AppError('TRAY_DISABLED', item.tooltip ?? `"${item.label}" is not available now`);
    const { action } = item;
    if (action.by === 'shell')
      throw new AppError('TRAY_SHELL_ITEM', `"${item.label}" is carried out by the window or tray`);
    switch (action.name) {
      case 'session.restart':
      case 'session.stop':
      case 'session.update':
      case 'session.update-and-restart': {
        const { profileId, sessionId } = action;
        const name = action.name.slice('session.'.length) as SessionActionRequest['action'];
        return {
          action,
          result: await this.options.runSession({ profileId, sessionId, action: name }),
        };
      }
      case 'profile.switch':
        this.options.profiles.switch(action.profileId);
        return { action, result: null };
      case 'notifications.pause':
        this.options.pauseNotifications(action.for);
        return { action, result: null };
      case 'notifications.resume':
        this.options.pauseNotifications('resume');
        return { action, result: null };
      case 'app.update':
        this.options.updates?.install();
        return { action, result: null };
    }
  }

  close(): void {
    clearTimeout(this.dndTimer);
    for (const stop of this.stops.splice(0)) stop();
  }

  private watchDoNotDisturb(until: string | null): void {
    clearTimeout(this.dndTimer);
    const ms = until ? Date.parse(until) - this.now() : 0;
    if (ms <= 0) return;
    // setTimeout's limit is about 24.8 days; do-not-disturb is at most until tomorrow.
    this.dndTimer = setTimeout(() => this.changed(), Math.min(ms + 1, 2 ** 31 - 1));
    this.dndTimer.unref?.();
  }

  private build(): TrayModel {
    const { profiles, activeId } = this.options.profiles.state();
    const { doNotDisturbUntil: dnd, mutedAgents } = this.options.settings.get();
    const rollout = this.options.rollout?.rolloutState();
    const ready = this.options.updates?.state();
    return trayModel({
      profiles: profiles.map((p) => ({ id: p.id, name: p.name, active: p.id === activeId })),
      agents: this.options.agents.snapshot(),
      monitor: this.options.watched.snapshot(),
      unseenOffline: this.unseenOffline,
      unseenActivity: this.options.activity.unseen(),
      doNotDisturbUntil: dnd ? Date.parse(dnd) : null,
      mutedAgents,
      now: this.now(),
      rolloutLine:
        rollout?.state === 'running' || rollout?.state === 'paused' ? rollout.line : null,
      quitQuestion: this.options.rollout?.quitQuestion() ?? null,
      updateReady: ready?.phase === 'ready' ? ready.offered : null,
    });
  }

  private changed(): void {
    const next = this.build();
    const json = JSON.stringify(next);
    if (json === this.currentJson) return;
    this.current = next;
    this.currentJson = json;
    this.changes.emit(next);
  }
}
