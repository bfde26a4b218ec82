import { ERRORS, type ErrorName } from '../../api/errors/errors.ts';
import type { TunnelSession } from '../../api/kinds/tunnel-sessions.ts';

/** What a person can ask of a session; `update-and-restart` is an update, the wait, a restart. */
export const SESSION_ACTIONS = ['restart', 'stop', 'update', 'update-and-restart'] as const;
export type SessionAction = (typeof SESSION_ACTIONS)[number];

export type Availability =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      readonly reason: string;
      /** A few words for a menu item's label: "Restart (not on Windows)". */
      readonly short: string;
      readonly errorCode: string;
    };

/**
 * Why the service refuses a session command, worded for a person. The four update failures can
 * only come from the service (only the agent knows its update state); the others are also known
 * before the call, from the session alone.
 */
export const COMMAND_REFUSALS: Partial<Readonly<Record<ErrorName, string>>> = {
  restartUnsupportedOnWindows: 'Restart is not supported on Windows agents.',
  commandUnsupportedOnSsh:
    'An SSH session can only be stopped: an SSH client has no agent process to restart or update.',
  noUpdateAvailable: "No newer version of this agent's major version is available.",
  updateChecksDisabled: "The agent's configuration turns update checks off.",
  alreadyUpdating: 'The agent is already updating.',
  updatedAwaitingRestart: 'The agent has already updated; restart it to run the new version.',
  agentTimeout: 'The agent did not answer in time.',
  notFound: 'The session has ended: the agent is no longer online.',
};

const SHORT: Partial<Readonly<Record<ErrorName, string>>> = {
  restartUnsupportedOnWindows: 'not on Windows',
  commandUnsupportedOnSsh: 'not on SSH sessions',
};

function refused(name: ErrorName): Availability {
  return {
    allowed: false,
    reason: COMMAND_REFUSALS[name] ?? '',
    short: SHORT[name] ?? '',
    errorCode: ERRORS[name].code,
  };
}

/** The spec's rules that the session alone decides: checked before any call is made. */
export function availability(
  session: Pick<TunnelSession, 'os' | 'transport'>,
  action: SessionAction,
): Availability {
  if (action === 'stop') return { allowed: true };
  if (session.transport === 'ssh') return refused('commandUnsupportedOnSsh');
  if (action !== 'update' && session.os === 'windows')
    return refused('restartUnsupportedOnWindows');
  return { allowed: true };
}
