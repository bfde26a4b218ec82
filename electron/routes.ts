import type { NotificationTarget } from '../shared/notifications.ts';

/*
 * The renderer's hash routes the shell opens the window at: `#/<section>` as the renderer's
 * sections already read them, then the item and, for sessions, its profile. Ids are encoded so an
 * odd id cannot change the route's shape.
 */

export function notificationRoute(target: NotificationTarget): string {
  const e = encodeURIComponent;
  switch (target.type) {
    case 'session':
      return `#/sessions/${e(target.sessionId)}?profile=${e(target.profileId)}`;
    case 'sessions':
      return `#/sessions?profile=${e(target.profileId)}`;
    case 'profile':
      return `#/settings?profile=${e(target.profileId)}`;
    case 'certificate':
      return `#/ssh/${e(target.certId)}`;
  }
}
