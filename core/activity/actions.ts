import type { TunnelSession } from '../../shared/api/tunnel-sessions.ts';
import type { ActionSource, NewActivityEntry } from '../../shared/app/activity.ts';
import type { RolloutEvent } from '../../shared/app/fleet.ts';
import { agentId } from '../../shared/app/agents.ts';
import type { SessionActionRequest } from '../../shared/app/ipc/sessions.ts';
import { agentDisplayName, agentKey } from '../../shared/app/monitor.ts';
import type { ActionResult } from '../../shared/app/sessions/actions.ts';

const DONE: Record<ActionResult['action'], string> = {
  restart: 'Restart',
  stop: 'Stop',
  update: 'Update',
  'update-and-restart': 'Update and restart',
};

/** A session action as the record keeps it: what, on which agent, from where, and how it ended. */
export function actionEntry(
  source: ActionSource,
  result: ActionResult,
  session: TunnelSession | undefined,
  at: number,
): NewActivityEntry {
  const who = session ? agentDisplayName(session) : result.sessionId;
  return {
    kind: 'action',
    at,
    profileId: result.profileId,
    title: `${DONE[result.action]} ${who}`,
    detail: result.ok
      ? `Done, from the ${source}.`
      : `Failed, from the ${source}: ${result.reason}`,
    source,
    ok: result.ok,
    ...(session && { agentId: agentId(result.profileId, agentKey(session)) }),
  };
}

/** `run` with each result recorded (the recorder keeps a write's failure from the action). */
export function recordedRun(
  run: (request: SessionActionRequest) => Promise<ActionResult>,
  source: ActionSource,
  findSession: (request: SessionActionRequest) => TunnelSession | undefined,
  record: (entry: NewActivityEntry) => void,
): (request: SessionActionRequest) => Promise<ActionResult> {
  return async (request) => {
    const session = findSession(request);
    const result = await run(request);
    record(actionEntry(source, result, session, Date.now()));
    return result;
  };
}

const STEP: Record<RolloutEvent['event'], string> = {
  updated: 'updated',
  restarting: 'restarting',
  online: 'back online on its new version',
  failed: 'failed',
  skipped: 'skipped',
  done: 'done',
};

/** A rolling update's step as the record keeps it. */
export function rolloutEntry(event: RolloutEvent): NewActivityEntry {
  const version = event.version === null ? '' : ` (${event.version})`;
  return {
    kind: 'rollout',
    at: Date.parse(event.at),
    profileId: event.profileId,
    agentId: event.agentId,
    step: event.event,
    title: `Rolling update: ${event.agent} ${STEP[event.event]}${version}`,
    detail: event.reason ?? '',
  };
}
