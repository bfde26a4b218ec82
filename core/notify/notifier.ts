import { Emitter } from '../../shared/app/emitter.ts';
import type { SessionActionRequest } from '../../shared/app/ipc/sessions.ts';
import type { NewActivityEntry, NoticeHeld } from '../../shared/app/activity.ts';
import { agentId } from '../../shared/app/agents.ts';
import { alertRulesOf, type AlertRules, type Settings } from '../../shared/app/ipc/settings.ts';
import {
  INITIAL_NOTIFY_STATE,
  type Notification,
  type NotificationAction,
  type NotifyInput,
  type NotifyPrefs,
  type NotifyState,
} from '../../shared/app/notifications.ts';
import type { ActionResult } from '../../shared/app/sessions/actions.ts';
import { systemClock, type Timer } from '../../shared/node/clock.ts';
import { AppError } from '../errors.ts';
import {
  admit,
  behindVersion,
  INITIAL_RULES_STATE,
  nextDue,
  quietSummary,
  quietUntil,
  releaseDue,
  type RulesState,
} from './alert-rules.ts';
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
  /** Each notice decided, shown or held, for the activity record. */
  readonly record?: (entry: NewActivityEntry) => void;
  /** Wall-clock epoch ms, and the timer of held notices: tests pass a faster one. */
  readonly now?: () => number;
  readonly setTimer?: (callback: () => void, ms: number) => Timer;
};

/** A profile's notices held by its quiet hours, and when they end. */
type Quiet = { readonly until: number; readonly held: Notification[] };

function supersededByLeadTime(event: NotifyInput, rules: AlertRules): boolean {
  return (
    event.kind === 'certificate-expiring' &&
    event.leadDays === undefined &&
    rules.certificateLeadDays !== null
  );
}

function profileOf(notification: Notification): string | undefined {
  const { target } = notification;
  return 'profileId' in target ? target.profileId : undefined;
}

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
  private readonly setTimer: (callback: () => void, ms: number) => Timer;
  private state: NotifyState = INITIAL_NOTIFY_STATE;
  private rules: RulesState = INITIAL_RULES_STATE;
  private readonly quiet = new Map<string, Quiet>();
  /** Each profile's newest version per major, once its first listing was heard. */
  private readonly newest = new Map<string, Map<string, string>>();
  private timer: { readonly at: number; readonly timer: Timer } | undefined;
  private readonly shown = new Emitter<Notification>('the notifications');
  /** The last notifications shown, by id, oldest first: what their actions act on. */
  private readonly recent = new Map<string, Notification>();

  constructor(options: NotifierOptions) {
    this.options = options;
    this.settings = options.settings;
    this.profileNames = options.profileNames;
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((callback, ms) => systemClock.setTimer(callback, ms));
  }

  hear(event: NotifyInput): void {
    const settings = this.settings.get();
    const now = this.now();
    const rules = alertRulesOf(settings, event.profileId ?? '');
    // A profile with a lead time hears of its certificates by that rule, not at renewal time.
    if (supersededByLeadTime(event, rules)) return;
    const before = this.rules.held.length;
    const admitted = admit(event, rules, this.rules, now);
    this.rules = admitted.state;
    if (this.rules.held.length > before) this.recordDry(event, 'rule');
    this.tell(admitted.now);
  }

  /** A profile's sessions as a poll listed them: agents a newer version left behind are told. */
  heardSessions(profileId: string, sessions: Parameters<typeof behindVersion>[1]): void {
    const found = behindVersion(profileId, sessions, this.newest.get(profileId), this.now());
    this.newest.set(profileId, found.newest);
    if (!alertRulesOf(this.settings.get(), profileId).behindVersion) return;
    for (const event of found.events) this.tell([event]);
  }

  /** Stops the timer of held notices; they are not told. */
  close(): void {
    this.timer?.timer.cancel();
    this.timer = undefined;
  }

  private prefs(): NotifyPrefs {
    const settings = this.settings.get();
    return {
      kinds: settings.notifications,
      mutedAgents: settings.mutedAgents,
      doNotDisturbUntil: settings.doNotDisturbUntil ? Date.parse(settings.doNotDisturbUntil) : null,
    };
  }

  /** Events through the policy, then each notice shown or held by its profile's quiet hours. */
  private tell(events: readonly NotifyInput[]): void {
    const now = this.now();
    if (events.length > 0) {
      const { notifications, state } = notify({
        events,
        prefs: this.prefs(),
        state: this.state,
        now,
        profileNames: this.profileNames(),
      });
      this.state = state;
      const settings = this.settings.get();
      for (const notification of notifications) {
        const profileId = profileOf(notification);
        const quiet =
          profileId === undefined
            ? undefined
            : (this.quiet.get(profileId)?.until ??
              quietUntil(alertRulesOf(settings, profileId).quietHours, now));
        if (profileId !== undefined && quiet !== undefined) {
          const held = this.quiet.get(profileId)?.held ?? [];
          this.quiet.set(profileId, { until: quiet, held: [...held, notification] });
          this.recordNotice(notification, 'quiet hours');
        } else this.show(notification);
      }
    }
    this.arm();
  }

  private show(notification: Notification): void {
    this.recordNotice(notification);
    this.recent.set(notification.id, notification);
    if (this.recent.size > ACTIONABLE) this.recent.delete(this.recent.keys().next().value ?? '');
    this.shown.emit(notification);
  }

  /** Held offlines whose minutes are up, and quiet hours that ended, told now. */
  private wake(): void {
    this.timer = undefined;
    const now = this.now();
    const released = releaseDue(this.rules, now);
    this.rules = released.state;
    for (const [profileId, quiet] of this.quiet) {
      if (quiet.until > now) continue;
      this.quiet.delete(profileId);
      const names = this.profileNames();
      const several = Object.keys(names).length > 1;
      this.show(quietSummary(profileId, quiet.held, now, several ? names[profileId] : undefined));
    }
    this.tell(released.now);
  }

  /** One timer, at the earliest of the held offlines and the quiet hours' ends. */
  private arm(): void {
    const ends = [...this.quiet.values()].map((q) => q.until);
    const due = nextDue(this.rules);
    const at = Math.min(...ends, ...(due === undefined ? [] : [due]));
    if (!Number.isFinite(at) || this.timer?.at === at) return;
    this.timer?.timer.cancel();
    this.timer = { at, timer: this.setTimer(() => this.wake(), Math.max(0, at - this.now())) };
  }

  /** What the policy would say of an event a rule holds, recorded as held. */
  private recordDry(event: NotifyInput, held: NoticeHeld): void {
    const prefs = { ...this.prefs(), doNotDisturbUntil: null };
    const dry = notify({ events: [event], prefs, state: INITIAL_NOTIFY_STATE, now: this.now() });
    for (const notification of dry.notifications) this.recordNotice(notification, held);
  }

  private recordNotice(notification: Notification, held?: NoticeHeld): void {
    const profileId = profileOf(notification);
    // Drift keeps its own entry, told or not (core/drift/wiring.ts): one entry per drift.
    if (profileId === undefined || this.options.record === undefined) return;
    if (notification.kind === 'drift') return;
    const { agent } = notification;
    const words = notification.record ?? { title: notification.title, detail: notification.body };
    this.options.record({
      kind: 'notice',
      at: this.now(),
      profileId,
      title: words.title,
      detail: words.detail,
      notice: notification.kind,
      ...(agent && { agentId: agentId(agent.profileId, agent.agentKey) }),
      ...(held && { held }),
    });
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
  onNotification(listener: (notification: Notification) => void): () => void {
    return this.shown.subscribe(listener);
  }

  /** "Pause notifications": for an hour, until tomorrow morning, or no longer. */
  pause(choice: 'hour' | 'tomorrow' | 'resume'): Settings {
    const until = choice === 'resume' ? null : new Date(pauseUntil(choice, this.now()));
    return this.settings.update({ doNotDisturbUntil: until?.toISOString() ?? null });
  }
}
