import { Emitter } from '../../shared/emitter.ts';
import type { Settings } from '../../shared/ipc/settings.ts';
import {
  INITIAL_NOTIFY_STATE,
  type Notification,
  type NotifyInput,
  type NotifyState,
} from '../../shared/notifications.ts';
import { notify, pauseUntil } from './policy.ts';

/** The settings the policy reads, and the one it writes (do not disturb). */
export interface NotifySettings {
  get(): Settings;
  update(patch: { doNotDisturbUntil: string | null }): Settings;
}

export type NotifierOptions = {
  readonly settings: NotifySettings;
  /** Profile names for the words, by id. */
  readonly profileNames: () => Readonly<Record<string, string>>;
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
  private readonly now: () => number;
  private state: NotifyState = INITIAL_NOTIFY_STATE;
  private readonly shown = new Emitter<Notification>('the notifications');

  constructor(options: NotifierOptions) {
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
    for (const notification of notifications) this.shown.emit(notification);
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
