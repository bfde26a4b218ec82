import type { TunnelSession } from '../shared/api/tunnel-sessions.ts';
import type { ActionEvent, ActionResult } from '../shared/app/sessions/actions.ts';
import { agentName } from '../shared/app/monitor.ts';
import { actionEntry } from '../core/activity/actions.ts';
import { ActivityRecord } from '../core/activity/record.ts';
import { SessionsService } from '../core/sessions/service.ts';
import { ProfileId } from '../shared/app/ipc/profiles.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { CliError, confirm, writeJson, type Io } from './io.ts';
import type { Options } from './args.ts';
import type { Target } from './target.ts';

/** What the command uses of the window's sessions service: the same door for both. */
export type SessionsDoor = Pick<SessionsService, 'run' | 'onAction' | 'close'>;

/**
 * The window's SessionsService on the command's account. Its sessions are those the command
 * just listed: there is no monitor to find them in, to tell of a command or to poll again.
 */
export function openSessionsService(
  target: Target,
  listed: readonly TunnelSession[],
): SessionsDoor {
  return new SessionsService({
    watched: {
      findSession: (_profileId, sessionId) => listed.find((s) => s.id === sessionId),
      expect: () => undefined,
      pollNow: () => Promise.resolve(),
    },
    client: () => Promise.resolve({ client: target.client }),
    settings: { get: () => ({ mutedAgents: [] }), update: (patch) => patch },
  });
}

/** The session `agent` names: its id, or an agent name only one session has. */
function findSession(sessions: readonly TunnelSession[], agent: string): TunnelSession {
  const byId = sessions.find((s) => s.id === agent);
  if (byId) return byId;
  const named = sessions.filter((s) => agentName(s) === agent);
  if (named.length === 1 && named[0]) return named[0];
  if (named.length === 0)
    throw new CliError(
      `No online agent is named "${agent}" and no session has that id ("burrow sessions" lists them)`,
    );
  throw new CliError(
    `${named.length} sessions have the agent name "${agent}": give a session id (${named.map((s) => s.id).join(', ')})`,
  );
}

/**
 * The action in the app's activity record, as the window's are (an account given by --api-url is
 * no profile of the app's: nothing to record it under). A record that cannot be written is said,
 * and the action's outcome stands.
 */
function record(target: Target, result: ActionResult, session: TunnelSession, io: Io): void {
  if (!ProfileId.safeParse(target.profileId).success) return;
  try {
    new ActivityRecord(target.dataDir).append(
      actionEntry('command line', result, session, Date.now()),
    );
  } catch (error) {
    io.stderr.write(`Not in the activity record: ${escapeControls(String(error))}\n`);
  }
}

/** A step of update-and-restart as it starts, one line on stderr. */
function stepLine(event: ActionEvent, io: Io): void {
  const line =
    event.phase === 'sent'
      ? { update: 'Updating…', restart: 'Restarting…', stop: 'Stopping…' }[event.command]
      : event.phase === 'waiting'
        ? `Waiting ${Math.round(event.ms / 1000)} s for the update to settle…`
        : event.phase === 'finding'
          ? 'Waiting for the agent to come back…'
          : undefined;
  if (line !== undefined) io.stderr.write(`${line}\n`);
}

/**
 * `burrow restart|stop|update AGENT`: the agent found by name or id, then the action run by the
 * sessions service, as the window runs it.
 */
export async function actionCommand(
  action: 'restart' | 'stop' | 'update',
  target: Target,
  agent: string,
  options: Options,
  io: Io,
  open: (target: Target, listed: readonly TunnelSession[]) => SessionsDoor = openSessionsService,
): Promise<number> {
  const listed = await target.client.tunnelSessions.listAll();
  const session = findSession(listed, agent);
  const who = escapeControls(`${agentName(session) ?? 'the agent'} (${session.id})`);
  if (
    action === 'stop' &&
    !options.yes &&
    !(await confirm(io, `Stop ${who}? It will not come back by itself.`, 'burrow stop'))
  )
    throw new CliError('Stop cancelled: the agent runs on');
  const restarting = action === 'update' && options.restart;
  const sessions = open(target, listed);
  const stopTelling =
    restarting && io.isTTY.stderr ? sessions.onAction((event) => stepLine(event, io)) : undefined;
  const result = await sessions
    .run({
      profileId: target.profileId,
      sessionId: session.id,
      action: restarting ? 'update-and-restart' : action,
    })
    .finally(() => {
      stopTelling?.();
      sessions.close();
    });
  record(target, result, session, io);
  if (options.json) writeJson(io, result);
  if (!result.ok) {
    const ids = [result.errorCode, result.operationId].filter((x) => x !== null);
    throw new CliError(
      `${action} ${who}: ${result.reason}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}`,
    );
  }
  if (!options.json && restarting) {
    const { successor, version, note } = result;
    const [now, after, before] = [successor?.id, version?.after, version?.before].map((text) =>
      escapeControls(text ?? '?'),
    );
    io.stdout.write(`${who} updated and restarted: now ${now} on ${after} (was ${before}).\n`);
    if (note !== undefined) io.stderr.write(`${escapeControls(note)}\n`);
  } else if (!options.json) {
    const done = { restart: 'restarts', stop: 'stopped', update: 'updates' }[action];
    io.stdout.write(action === 'stop' ? `${who} stopped.\n` : `${who} accepted: it ${done} now.\n`);
  }
  return 0;
}
