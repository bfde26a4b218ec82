import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { MonitorSnapshot, ProfileSnapshot } from '../../../shared/app/monitor.ts';
import type { Notification as BurrowNotification } from '../../../shared/app/notifications.ts';
import { notificationRoute, routeHref } from '../../../shared/app/routes.ts';
import type { ActionEvent } from '../../../shared/app/sessions/actions.ts';
import type { TrayModel } from '../../../shared/app/tray.ts';
import { AgentsState } from './agents.svelte.ts';
import { FleetState } from './fleet.svelte.ts';
import { followState } from '../lib/follow-state.ts';
import type { Toasts } from './toasts.svelte.ts';

/**
 * The monitor's view of sessions, the agents behind them and the tray model, as core tells them:
 * the Sessions screen and the header's tray panel read this and never poll of their own.
 * Notifications are shown as a toast, and through the Notification API when the person allowed it.
 */
export class SessionsState {
  snapshot = $state<MonitorSnapshot | undefined>();
  tray = $state<TrayModel | undefined>();
  /** What the browser allows for desktop notifications; asked only on a click. */
  permission = $state<NotificationPermission | 'unsupported'>(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );

  /** The agents behind the sessions, as core keeps them: what the Sessions screen lists. */
  readonly agents: AgentsState;
  /** The agents picked across profiles, bulk actions' results and the rolling update. */
  readonly fleet: FleetState;

  constructor(
    private readonly bridge: Bridge,
    private readonly toasts: Toasts,
  ) {
    this.agents = new AgentsState(bridge, toasts);
    this.fleet = new FleetState(bridge, toasts);
  }

  profile(profileId: string | null | undefined): ProfileSnapshot | undefined {
    return this.snapshot?.profiles.find((p) => p.profileId === profileId);
  }

  start(): () => void {
    const followed = [
      followState(this.bridge, 'sessions.changed', (snapshot) => {
        this.snapshot = snapshot;
      }),
      followState(this.bridge, 'tray.changed', (model) => {
        this.tray = model;
      }),
    ];
    // Until core answers, the screen and the tray panel say they are waiting.
    for (const state of followed) void state.ask().catch(() => undefined);
    const stops = [
      ...followed.map((state) => state.stop),
      this.bridge.on('sessions.action', (event) => {
        // A bulk action's or a rolling update's agents: their rows and summary say it.
        if (event.phase === 'done' && !event.grouped) this.toastResult(event);
      }),
      this.bridge.on('notification', (notification) => this.notify(notification)),
      this.agents.start(),
      this.fleet.start(),
    ];
    return () => stops.forEach((stop) => stop());
  }

  /** Asks for desktop notifications: only ever from a person's click. */
  async allowNotifications(): Promise<void> {
    if (this.permission === 'unsupported') return;
    this.permission = await Notification.requestPermission();
  }

  private notify(notification: BurrowNotification): void {
    const looks = { problem: 'error', good: 'success', info: 'info' } as const;
    // Quiet hours' summary is all that is told of what they held: it stays until dismissed.
    this.toasts.show(
      looks[notification.tone ?? 'info'],
      notification.title + ': ' + notification.body,
      notification.kind === 'quietSummary' ? { lasting: true } : {},
    );
    if (this.permission !== 'granted') return;
    const shown = new Notification(notification.title, {
      body: notification.body,
      tag: notification.id,
    });
    shown.onclick = () => {
      window.focus();
      window.location.hash = routeHref(notificationRoute(notification.target));
    };
  }

  private toastResult(event: Extract<ActionEvent, { phase: 'done' }>): void {
    const { result, agent } = event;
    if (!result.ok) {
      this.toasts.error({
        code: result.errorCode ?? 'ACTION_FAILED',
        message: result.reason,
        ...(result.operationId && { operationId: result.operationId }),
      });
      return;
    }
    // Named, as a command from the palette, the tray or a terminal is not beside its row.
    const done = {
      restart: `Restart sent to ${agent}`,
      stop: `Stopped ${agent}`,
      update: `Update sent to ${agent}`,
    } as const;
    const message =
      result.action === 'update-and-restart'
        ? (result.note ??
          (result.version
            ? `Updated ${agent} ${result.version.before} → ${result.version.after}`
            : `Updated ${agent}`))
        : done[result.action];
    this.toasts.show('success', message);
  }
}
