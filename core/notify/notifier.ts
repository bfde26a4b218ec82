import { Emitter } from '../../shared/app/emitter.ts';
import type { SessionActionRequest } from '../../shared/app/ipc/sessions.ts';
import type { Settings } from '../../shared/app/ipc/settings.ts';
import {
  INITIAL_NOTIFY_STATE,
  type Notification,
  type NotificationAction,
  type NotifyInput,
  type NotifyState,
} from '../../shared/app/notifications.ts';
import type { ActionResult } from '../../shared/app/sessions/actions.ts';
import { AppError } from '../errors.ts';
import { notify, pauseUntil } from './policy.ts';

/** Notifications whose actions still answer: the OS keeps only the last few on screen anyway. */
const ACTIONABLE = 50;

/** The settings the policy reads, and the one it writes (do not disturb). */
export interface NotifySettings {
  get(): Settings;
  update(patch: { doNotDisturbUntil: string | null }): Settings;
}

export type NotifierOptions = {
  readonly settings: NotifySettings;
  /** Profile names for the words, by id. */
  readonly profileNames: () => Readonly<Record<string, string>>;
  /** A notification's Restart (core/sessions, which checks the rules). */
  readonly runSession: (request: SessionActionRequest) => Promise<ActionResult>;
  /** A notification's "Mute this agent", by its agent key. */
  readonly mute: (agentKey: string) => unknown;
  readonly now?: () => number;
};

/**
 * The notification policy in the app: whatever may be worth a notification (the monitor's
 * events, a certificate nearing its end) is heard here, decided under the person's settings
 * (switches per kind, muted agents, do not disturb) with the policy's memory kept between two
 * events, and what passes is told once to the shells.
 */
export class Notifier {
  private readonly settings: NotifySettings;
  private readonly profileNames: () => Readonly<Record<string, string>>;
  private readonly options: NotifierOptions;
  private readonly now: () => number;
  private state: NotifyState = INITIAL_NOTIFY_STATE;
  private readonly shown = new Emitter<Notification>('the notifications');
  /** The last notifications shown, by id, oldest first: what their actions act on. */
  private readonly recent = new Map<string, Notification>();

  constructor(options: NotifierOptions) {
    this.options = options;
    this.settings = options.settings;
    this.profileNames = options.profileNames;
    this.now = options.now ?? Date.now;
  }

  hear(event: NotifyInput): void {
    const settings = this.settings.get();
    const { notifications, state } = notify({
      events: [event],
      prefs: {
        kinds: settings.notifications,
        mutedAgents: settings.mutedAgents,
        doNotDisturbUntil: settings.doNotDisturbUntil
          ? Date.parse(settings.doNotDisturbUntil)
          : null,
      },
      state: this.state,
      now: this.now(),
      profileNames: this.profileNames(),
    });
    this.state = state;
    for (const notification of notifications) {
      this.recent.set(notification.id, notification);
      if (this.recent.size > ACTIONABLE) this.recent.delete(this.recent.keys().next().value ?? '');
      this.shown.emit(notification);
    }
  }

  /**
   * A notification's Restart or Mute, by its id (the shell opens for Open itself): only what
   * that notification offered, and for its own agent.
   */
  async act(id: string, action: Exclude<NotificationAction, 'open'>): Promise<unknown> {
    const notification = this.recent.get(id);
    if (!notification)
      throw new AppError(
        'NOTIFY_NO_ITEM',
        `No recent notification ${JSON.stringify(id)} to act on`,
      );
    const { agent } = notification;
    if (!notification.actions.includes(action) || !agent)
      throw new AppError('NOTIFY_NO_ACTION', `"${notification.title}" offers no ${action}`);
    if (action === 'mute') return this.options.mute(agent.agentKey);
    const { profileId, sessionId } = agent;
    return this.options.runSession({ profileId, sessionId, action: 'restart' });
  }

  /** Each notification to show, once; the shell shows it its way. */
  subscribe(listener: (notification: Notification) => void): () => void {
    return this.shown.subscribe(listener);
  }

  /** "Pause notifications": for an hour, until tomorrow morning, or no longer. */
  pause(choice: 'hour' | 'tomorrow' | 'resume'): Settings {
    const until = choice === 'resume' ? null : new Date(pauseUntil(choice, this.now()));
    return this.settings.update({ doNotDisturbUntil: until?.toISOString() ?? null });
  }
}
