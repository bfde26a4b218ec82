import type { NotificationConstructorOptions } from 'electron';
import {
  NOTIFICATION_ACTIONS,
  type Notification,
  type NotificationAction,
} from '../shared/app/notifications.ts';
import { notificationRoute, routeHref } from '../shared/app/routes.ts';

/** Each notification core's policy decided to show, once; returns the unsubscribe. */
export interface NotificationSource {
  onNotification(listener: (notification: Notification) => void): () => void;
  /** A notification's Restart or Mute, carried out by core by the notification's id. */
  act(id: string, action: Exclude<NotificationAction, 'open'>): Promise<unknown>;
}

/** What the person did with a shown notification: clicked it, or pressed its n-th button. */
export type NotificationHandlers = { click(): void; action(index: number): void };

/** Shows one native notification with these options, calling back on a click or a button. */
export type ShowNotification = (
  options: NotificationConstructorOptions,
  on: NotificationHandlers,
) => void;

/** Electron shows a notification's buttons on macOS and Windows; elsewhere only its click counts. */
function nativeOptions(
  notification: Notification,
  platform: NodeJS.Platform,
): NotificationConstructorOptions {
  const { title, body, actions } = notification;
  if (platform !== 'darwin' && platform !== 'win32') return { title, body };
  return {
    title,
    body,
    actions: actions.map((action) => ({ type: 'button', text: NOTIFICATION_ACTIONS[action] })),
  };
}

/**
 * Every notification core's policy lets through becomes a native one; clicking it (or its Open)
 * opens the window at what it is about (the agent, the certificate, …), its Restart and Mute go
 * to core. A failed action is reported, never thrown into Electron's handler. Returns the
 * unsubscribe.
 */
export function forwardNotifications(
  source: NotificationSource,
  show: ShowNotification,
  shell: {
    openWindow(route: string): void;
    report(error: unknown): void;
    platform: NodeJS.Platform;
  },
): () => void {
  return source.onNotification((notification) => {
    const open = () => shell.openWindow(routeHref(notificationRoute(notification.target)));
    show(nativeOptions(notification, shell.platform), {
      click: open,
      action: (index) => {
        const action = notification.actions[index];
        if (action === 'open') open();
        else if (action) void source.act(notification.id, action).catch(shell.report);
      },
    });
  });
}
