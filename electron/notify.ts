import type { Notification } from '../shared/notifications.ts';
import { notificationRoute, routeHref } from '../shared/routes.ts';

/** Each notification core's policy decided to show, once; returns the unsubscribe. */
export interface NotificationSource {
  subscribe(listener: (notification: Notification) => void): () => void;
}

/** Shows one native notification; `onClick` runs when the person clicks it. */
export type ShowNotification = (notification: Notification, onClick: () => void) => void;

/**
 * Every notification core's policy lets through becomes a native one; clicking it opens the
 * window at what it is about (the session, the certificate, …). Returns the unsubscribe.
 */
export function forwardNotifications(
  source: NotificationSource,
  show: ShowNotification,
  openWindow: (route: string) => void,
): () => void {
  return source.subscribe((notification) =>
    show(notification, () => openWindow(routeHref(notificationRoute(notification.target)))),
  );
}
