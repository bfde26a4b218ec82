import type { AppCallName, IpcArgs, IpcEventName, IpcEventPayload, IpcResult } from './contract.ts';

/*
 * Apart from contract.ts, whose schemas core checks every call with: the renderer needs this list
 * at run time, and importing it from there put every schema of the contract in its bundle.
 */

/**
 * The events that carry a whole state, each with the call that answers that state now: a window
 * asks it as it starts, and a tab whose event stream was down asks it again, as it may have
 * missed some. A call's answer must be its event's payload (or null: nothing to show yet).
 */
export const STATE_EVENTS = {
  'profiles.changed': 'profiles.state',
  'settings.changed': 'settings.get',
  'sessions.changed': 'sessions.snapshot',
  'tray.changed': 'tray.model',
  'governor.changed': 'governor.state',
  'agents.changed': 'agents.snapshot',
  'rollout.changed': 'rollout.state',
  'drift.changed': 'drift.state',
  'updates.changed': 'updates.state',
} as const satisfies { readonly [E in IpcEventName]?: StateCallOf<E> };
export type StateEventName = keyof typeof STATE_EVENTS;

/** The calls that take no arguments and answer what event `E` carries. */
type StateCallOf<E extends IpcEventName> = {
  [N in AppCallName]: [] extends IpcArgs<N>
    ? IpcResult<N> extends IpcEventPayload<E> | null
      ? N
      : never
    : never;
}[AppCallName];
