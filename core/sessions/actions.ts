import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { agentDisplayName, agentKey } from '../../shared/app/monitor.ts';
import type { ActionEvent, ActionResult, ActionStep } from '../../shared/app/sessions/actions.ts';
import {
  availability,
  COMMAND_REFUSALS,
  type SessionAction,
} from '../../shared/app/sessions/rules.ts';
import type { ApiClient } from '../api/client.ts';
import { sleep, systemClock, type Clock } from '../../shared/node/clock.ts';
import { AbortError, ApiError } from '../api/errors.ts';
import type { ExpectedCommand } from '../monitor/monitor.ts';

/** The spec's wait between an update's success and the restart that runs the new version. */
export const UPDATE_SETTLE_MS = 10_000;

export type SessionActionsOptions = {
  readonly client: ApiClient;
  readonly profileId: string;
  /** Told of an accepted stop or restart, so that it says `stopped`/`restarted`, not `offline`. */
  readonly monitor?: {
    expect(profileId: string, sessionId: string, command: ExpectedCommand): void;
  };
  readonly clock?: Clock;
  /** Wait after the update's 204; at least the spec's 10 s. */
  readonly settleMs?: number;
  /** How long to look for the restarted agent, and how often. */
  readonly findTimeoutMs?: number;
  readonly findEveryMs?: number;
  readonly onEvent?: (event: ActionEvent) => void;
  /**
   * Finds the restarted agent's new session instead of listing every session each `findEveryMs`:
   * a rolling update waits for many agents and looks for all of them in one listing.
   */
  readonly findSuccessor?: FindSuccessor;
  /** The service accepted a command (its 204): the time to look at the sessions again. */
  readonly onAccepted?: (command: 'restart' | 'stop' | 'update') => void;
};

export type FindSuccessor = (
  session: TunnelSession,
  timeoutMs: number,
  signal: AbortSignal | undefined,
) => Promise<TunnelSession>;

export interface SessionActions {
  /** Runs `action` on `session`; never throws: a refusal or failure is a result with its reason. */
  run(action: SessionAction, session: TunnelSession, signal?: AbortSignal): Promise<ActionResult>;
}

class StepFailure extends Error {
  constructor(
    readonly step: ActionStep,
    readonly reason: string,
    readonly errorCode: string | null = null,
    readonly operationId: string | null = null,
  ) {
    super(reason);
  }
}

function failureOf(step: ActionStep, error: unknown): StepFailure {
  if (error instanceof StepFailure) return error;
  if (error instanceof ApiError) {
    const known = error.errorName === undefined ? undefined : COMMAND_REFUSALS[error.errorName];
    return new StepFailure(step, known ?? error.msg, error.errorCode, error.operationId ?? null);
  }
  return new StepFailure(step, error instanceof Error ? error.message : String(error));
}

/** Restart, stop, update and update-and-restart on one profile's sessions, rules first. */
export function createSessionActions(options: SessionActionsOptions): SessionActions {
  const { client, profileId } = options;
  const clock = options.clock ?? systemClock;
  const settleMs = options.settleMs ?? UPDATE_SETTLE_MS;
  const findTimeoutMs = options.findTimeoutMs ?? 30_000;
  const findEveryMs = options.findEveryMs ?? 1_000;
  if (!(settleMs >= UPDATE_SETTLE_MS))
    throw new RangeError(`settleMs must be at least the spec's ${UPDATE_SETTLE_MS} ms`);
  if (!(findTimeoutMs > 0 && findEveryMs > 0))
    throw new RangeError('findTimeoutMs and findEveryMs must be positive');

  const told = (tell: () => void) => {
    try {
      tell();
    } catch {
      // The action goes on whatever a listener does.
    }
  };
  const report = (event: ActionEvent) => told(() => options.onEvent?.(event));

  async function send(
    command: 'restart' | 'stop' | 'update',
    session: TunnelSession,
    signal: AbortSignal | undefined,
    base: Pick<ActionEvent, 'profileId' | 'sessionId' | 'action'>,
  ): Promise<void> {
    report({ ...base, phase: 'sent', command });
    try {
      await client.tunnelSessions[command](session.id, {}, { signal });
    } catch (error) {
      throw failureOf(command, error);
    }
    if (command !== 'update') options.monitor?.expect(profileId, session.id, command);
    told(() => options.onAccepted?.(command));
  }

  /** The agent's new session after a restart: same agent key, another id. */
  async function findSuccessor(
    session: TunnelSession,
    signal: AbortSignal | undefined,
  ): Promise<TunnelSession> {
    const key = agentKey(session);
    const deadline = clock.now() + findTimeoutMs;
    for (;;) {
      const listed = await client.tunnelSessions
        .listAll({ signal })
        .catch((error: unknown) => Promise.reject(failureOf('find', error)));
      const found = listed.find((s) => s.id !== session.id && agentKey(s) === key);
      if (found) return found;
      if (clock.now() + findEveryMs > deadline)
        throw new StepFailure(
          'find',
          `The agent did not come back within ${Math.round(findTimeoutMs / 1000)} s of its restart`,
        );
      await sleep(
        clock,
        findEveryMs,
        signal,
        () => new AbortError('finding the restarted agent'),
      ).catch((error: unknown) => Promise.reject(failureOf('find', error)));
    }
  }

  async function perform(
    action: SessionAction,
    session: TunnelSession,
    signal: AbortSignal | undefined,
  ): Promise<ActionResult> {
    const base = { profileId, sessionId: session.id, action };
    const allowed = availability(session, action);
    if (!allowed.allowed) throw new StepFailure('check', allowed.reason, allowed.errorCode);
    if (action !== 'update-and-restart') {
      await send(action, session, signal, base);
      return { ok: true, ...base };
    }
    await send('update', session, signal, base);
    report({ ...base, phase: 'waiting', ms: settleMs });
    await sleep(clock, settleMs, signal, () => new AbortError('waiting for the update')).catch(
      (error: unknown) => Promise.reject(failureOf('wait', error)),
    );
    await send('restart', session, signal, base);
    report({ ...base, phase: 'finding' });
    const successor = options.findSuccessor
      ? await options
          .findSuccessor(session, findTimeoutMs, signal)
          .catch((error: unknown) => Promise.reject(failureOf('find', error)))
      : await findSuccessor(session, signal);
    const version = { before: session.agent_version, after: successor.agent_version };
    const note =
      version.after === version.before
        ? `The agent restarted but still runs ${version.before}: the update had not settled.`
        : undefined;
    return { ok: true, ...base, successor, version, ...(note && { note }) };
  }

  return {
    async run(action, session, signal) {
      let result: ActionResult;
      try {
        result = await perform(action, session, signal);
      } catch (error) {
        const failure = failureOf('check', error);
        result = {
          ok: false,
          action,
          profileId,
          sessionId: session.id,
          step: failure.step,
          reason: failure.reason,
          errorCode: failure.errorCode,
          operationId: failure.operationId,
        };
      }
      const agent = agentDisplayName(session);
      report({ profileId, sessionId: session.id, action, phase: 'done', agent, result });
      return result;
    },
  };
}
