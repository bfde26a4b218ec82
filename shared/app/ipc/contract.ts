import { z } from 'zod';
import { activityCalls, activityEvents } from './activity.ts';
import { agentCalls, agentEvents } from './agents.ts';
import type { ApiCallTypes } from './api-calls.ts';
import { dialogCalls } from './dialogs.ts';
import { driftCalls, driftEvents } from './drift.ts';
import { exposeCalls, exposeEvents } from './expose.ts';
import { fleetCalls, fleetEvents } from './fleet.ts';
import { ProfileId, profileCalls, profileEvents } from './profiles.ts';
import { sessionCalls, sessionEvents } from './sessions.ts';
import { settingsCalls, settingsEvents } from './settings.ts';
import { snapshotCalls, snapshotEvents } from './snapshots.ts';
import { sshCalls, sshEvents } from './ssh.ts';
import { updateCalls, updateEvents } from './updates.ts';

/**
 * The one list of calls the renderer may make and events it may receive. Electron IPC (in the
 * app) and HTTP + server-sent events (browser mode) both carry exactly this list, and core/
 * checks every argument against these schemas before it acts: the renderer is untrusted input.
 * The API key goes in (`profiles.add`, `profiles.changeKey`) and never comes back out.
 */
const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /**
   * Where the renderer is running, so the UI can word things right ("window" vs "tab"); a
   * `burrow` command that runs without the app has a Burrow of its own, `command line`.
   */
  shell: z.enum(['electron', 'browser', 'command line']),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** The rolling window of the active profile's key, as the header shows it. */
const GovernorState = z.object({
  profileId: ProfileId,
  capacity: z.int(),
  windowMs: z.int(),
  used: z.int(),
  remaining: z.int(),
  queued: z.object({ interactive: z.int(), background: z.int() }),
  /** While the service refuses with 429: when the shared cool-down ends (epoch ms). */
  coolingDownUntil: z.number().nullable(),
});
export type GovernorState = z.infer<typeof GovernorState>;

/**
 * The app's own calls. Each feature keeps its calls and events beside its schemas (profiles.ts,
 * settings.ts, …) and is spread in here, so that adding a feature is one line in this file.
 */
export const appCalls = {
  'app.info': { args: z.tuple([]), result: AppInfo },
  ...profileCalls,
  ...settingsCalls,
  ...sshCalls,
  ...sessionCalls,
  ...snapshotCalls,
  ...agentCalls,
  ...dialogCalls,
  ...activityCalls,
  ...fleetCalls,
  ...driftCalls,
  ...exposeCalls,
  ...updateCalls,
  'governor.state': { args: z.tuple([]), result: GovernorState.nullable() },
  /** Stops a running `listAll` by its request id; true when there was one. */
  'api.cancel': { args: z.tuple([z.string().max(64)]), result: z.boolean() },
} as const;

type AppCalls = typeof appCalls;
type AppCallTypes = {
  [N in keyof AppCalls]: {
    args: z.input<AppCalls[N]['args']>;
    checked: z.output<AppCalls[N]['args']>;
    result: z.output<AppCalls[N]['result']>;
  };
};

export type AppCallName = keyof AppCalls;
export type IpcCallName = AppCallName | (keyof ApiCallTypes & string);
type CallTypes = AppCallTypes & ApiCallTypes;
export type IpcArgs<N extends IpcCallName> = CallTypes[N]['args'];
/** Arguments as an app call's handler receives them, after the contract's schema checked them. */
export type IpcCheckedArgs<N extends AppCallName> = AppCallTypes[N]['checked'];
export type IpcResult<N extends IpcCallName> = CallTypes[N]['result'];

export function isAppCallName(name: unknown): name is AppCallName {
  return typeof name === 'string' && Object.hasOwn(appCalls, name);
}

/** What the app tells the renderer without being asked. */
const ApiActivity = z.object({
  profileId: ProfileId,
  kind: z.enum(['rate-limited', 'retrying']),
  operation: z.string(),
  retryInMs: z.number(),
  message: z.string(),
});
export type ApiActivity = z.infer<typeof ApiActivity>;

const ApiProgress = z.object({
  requestId: z.string(),
  loaded: z.int(),
  pages: z.int(),
});
export type ApiProgress = z.infer<typeof ApiProgress>;

export const ipcEvents = {
  ...profileEvents,
  ...settingsEvents,
  ...sshEvents,
  ...sessionEvents,
  ...snapshotEvents,
  ...agentEvents,
  ...activityEvents,
  ...fleetEvents,
  ...driftEvents,
  ...exposeEvents,
  ...updateEvents,
  'governor.changed': GovernorState,
  'api.activity': ApiActivity,
  'api.progress': ApiProgress,
} as const;

export type IpcEventName = keyof typeof ipcEvents;
export type IpcEventPayload<E extends IpcEventName> = z.output<(typeof ipcEvents)[E]>;
/** One event as it crosses the wire. */
export type IpcEvent = {
  [E in IpcEventName]: { name: E; payload: IpcEventPayload<E> };
}[IpcEventName];

/**
 * The error a call answers with when it fails, as data: the API's `error_code` (or one of the
 * app's own `IPC_…` / `PROFILE_…` codes), the message to show, and when the API gave them, the
 * operation id to copy, the HTTP status and the field it names.
 */
const IpcError = z.object({
  code: z.string(),
  message: z.string(),
  operationId: z.string().optional(),
  status: z.int().optional(),
  field: z.string().optional(),
  /** The files a failure concerns, such as those already there when nothing may be replaced. */
  paths: z.array(z.string()).optional(),
});
export type IpcError = z.infer<typeof IpcError>;
