import { z } from 'zod';
import { MonitorEvent, MonitorSnapshot } from '../monitor.ts';
import { Notification } from '../notifications.ts';
import { ActionEvent, ActionResult, SessionActionName } from '../sessions/actions.ts';
import { TrayAction, TrayModel } from '../tray.ts';
import { ProfileId } from './profiles.ts';
import { Settings } from './settings.ts';

/*
 * Sessions as the windows and the tray see them: the monitor's snapshot and events, the session
 * actions (their rules checked in core before any call), the notifications core's policy decided
 * to show, and the tray menu as data. Electron's tray and browser mode's tray panel speak the
 * same calls.
 */

const SessionId = z.string().min(1).max(128);

const SessionActionRequest = z.strictObject({
  profileId: ProfileId,
  sessionId: SessionId,
  action: SessionActionName,
});
export type SessionActionRequest = z.input<typeof SessionActionRequest>;

/** What running a tray item did: core ran it, or the shell has to (copy, open, quit). */
const TrayRunResult = z.object({
  action: TrayAction,
  /** A session action's result; null for the others. */
  result: ActionResult.nullable(),
});
export type TrayRunResult = z.output<typeof TrayRunResult>;

export const sessionCalls = {
  /** The monitor's snapshot: every monitored profile, or the one named. */
  'sessions.snapshot': { args: z.tuple([ProfileId.optional()]), result: MonitorSnapshot },
  /** Restart, stop, update or update-and-restart; a refusal is a result with its reason. */
  'sessions.run': { args: z.tuple([SessionActionRequest]), result: ActionResult },
  /** The person looked at the Sessions screen: the tray stops asking for attention. */
  'sessions.seen': { args: z.tuple([]), result: z.null() },
  /** Mutes (true) or unmutes an agent by its agent key; answers the muted keys. */
  'sessions.mute': {
    args: z.tuple([z.string().min(1).max(512), z.boolean()]),
    result: z.array(z.string()),
  },
  /** Do not disturb for an hour, until tomorrow 08:00, or no longer. */
  'notifications.pause': {
    args: z.tuple([z.enum(['hour', 'tomorrow', 'resume'])]),
    result: Settings,
  },
  'tray.model': { args: z.tuple([]), result: TrayModel },
  /** Runs a tray item by its id, as the current model has it. */
  'tray.run': { args: z.tuple([z.string().min(1).max(256)]), result: TrayRunResult },
  'monitor.pause': { args: z.tuple([]), result: MonitorSnapshot },
  'monitor.resume': { args: z.tuple([]), result: MonitorSnapshot },
} as const;

export const sessionEvents = {
  'monitor.event': MonitorEvent,
  'sessions.changed': MonitorSnapshot,
  'sessions.action': ActionEvent,
  notification: Notification,
  'tray.changed': TrayModel,
} as const;
