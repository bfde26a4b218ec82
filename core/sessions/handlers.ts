import type { sessionCalls } from '../../shared/ipc/sessions.ts';
import type { AppHandlers } from '../ipc/dispatch.ts';
import type { SessionsService } from './service.ts';

/** The sessions, notifications, tray and monitor calls of the contract. */
export function sessionHandlers(
  sessions: SessionsService,
): Pick<AppHandlers, keyof typeof sessionCalls> {
  return {
    'sessions.snapshot': (profileId) => sessions.snapshot(profileId),
    'sessions.run': (request) => sessions.run(request),
    'sessions.seen': () => sessions.seen(),
    'sessions.mute': (agentKey, muted) => sessions.mute(agentKey, muted),
    'notifications.pause': (choice) => sessions.pauseNotifications(choice),
    'tray.model': () => sessions.tray.model(),
    'tray.run': (itemId) => sessions.tray.run(itemId),
    'monitor.pause': () => {
      sessions.monitor.pause();
      return sessions.snapshot();
    },
    'monitor.resume': () => {
      sessions.monitor.resume();
      return sessions.snapshot();
    },
  };
}
