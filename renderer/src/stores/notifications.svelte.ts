import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { Notification as BurrowNotification } from '../../../shared/app/notifications.ts';
import { notificationRoute, routeHref } from '../../../shared/app/routes.ts';
import type { Toasts } from './toasts.svelte.ts';

/**
 * Core's notifications as the window tells them: always as a toast, and through the browser's
 * Notification API too once the person allowed it.
 */
export class NotificationsState {
  /** What the browser allows for desktop notifications; asked only on a click. */
  permission = $state<NotificationPermission | 'unsupported'>(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );

  constructor(
    private readonly bridge: Bridge,
    private readonly toasts: Toasts,
  ) {}

  start(): () => void {
    return this.bridge.on('notification', (notification) => this.notify(notification));
  }

  /** Asks for desktop notifications: only ever from a person's click. */
  async allow(): Promise<void> {
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
}
