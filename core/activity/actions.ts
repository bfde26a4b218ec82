import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import type { ActionSource, NewActivityEntry } from '../../shared/app/activity.ts';
import type { RolloutEvent } from '../../shared/app/fleet.ts';
import { agentId } from '../../shared/app/agents.ts';
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

const STEP: Record<RolloutEvent['event'], string> = {
  updated: 'updated',
  restarting: 'restarting',
  online: 'back online on its new version',
  failed: 'failed',
  skipped: 'skipped',
  done: 'done',
};

/** A rolling update's step as the record keeps it, with the door that started the update. */
export function rolloutEntry(event: RolloutEvent, source: ActionSource): NewActivityEntry {
  const version = event.version === null ? '' : ` (${event.version})`;
  return {
    kind: 'rollout',
    at: Date.parse(event.at),
    profileId: event.profileId,
    agentId: event.agentId,
    step: event.event,
    source,
    title: `Rolling update: ${event.agent} ${STEP[event.event]}${version}`,
    detail: event.reason ?? '',
  };
}
