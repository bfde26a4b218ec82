import type { ActionSource } from '../../shared/app/activity.ts';
import type { sessionCalls } from '../../shared/app/ipc/sessions.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { WatchedProfiles } from '../monitor/watched.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { TrayService } from '../tray/service.ts';
import type { SessionsService } from './service.ts';

export type SessionParts = {
  readonly sessions: SessionsService;
  readonly watched: WatchedProfiles;
  readonly tray: TrayService;
  readonly notifier: Notifier;
};

/** The sessions, notifications, tray and monitor calls of the contract, as one door makes them. */
export function sessionHandlers(
  { sessions, watched, tray, notifier }: SessionParts,
  source: ActionSource,
): HandlersOf<typeof sessionCalls> {
  return {
    'sessions.snapshot': (profileId) => watched.snapshot(profileId),
    'sessions.run': (request) => sessions.run(request, { source }),
    'sessions.seen': () => tray.seen(),
    'sessions.mute': (agentKey, muted) => sessions.mute(agentKey, muted),
    'notifications.pause': (choice) => notifier.pause(choice),
    'tray.model': () => tray.model(),
    'tray.run': (itemId) => tray.run(itemId),
    'monitor.pause': () => {
      watched.monitor.pause();
      return watched.snapshot();
    },
    'monitor.resume': () => {
      watched.monitor.resume();
      return watched.snapshot();
    },
  };
}
