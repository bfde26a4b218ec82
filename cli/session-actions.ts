import type { TunnelSession } from '../shared/api/kinds/tunnel-sessions.ts';
import type { ActionEvent } from '../shared/app/sessions/actions.ts';
import { agentName } from '../shared/app/monitor.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { CliError, confirm, writeJson, type Io } from './io.ts';
import type { Options } from './args.ts';
import { openDoor, type Door } from './door.ts';

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

/** The sessions the profile's monitor lists now, or why it cannot list them. */
export async function listedOn(door: Door, profileId: string): Promise<readonly TunnelSession[]> {
  await door.polled([profileId]);
  const [profile] = (await door.call('sessions.snapshot', profileId)).profiles;
  if (profile && profile.polls === 0 && profile.healthReason !== null)
    throw new CliError(profile.healthReason);
  return profile?.sessions ?? [];
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
 * `burrow restart|stop|update AGENT`: the agent found by name or id among the sessions Burrow's
 * monitor lists, then the action run (and recorded, from the command line) as the window runs it.
 */
export async function actionCommand(
  action: 'restart' | 'stop' | 'update',
  agent: string,
  options: Options,
  io: Io,
): Promise<number> {
  const { door, accounts } = await openDoor(options, io);
  try {
    return await actionThrough(door, accounts[0]?.profileId ?? '', action, agent, options, io);
  } finally {
    await door.close();
  }
}

async function actionThrough(
  door: Door,
  profileId: string,
  action: 'restart' | 'stop' | 'update',
  agent: string,
  options: Options,
  io: Io,
): Promise<number> {
  const session = findSession(await listedOn(door, profileId), agent);
  const who = escapeControls(`${agentName(session) ?? 'the agent'} (${session.id})`);
  if (
    action === 'stop' &&
    !options.yes &&
    !(await confirm(io, `Stop ${who}? It will not come back by itself.`, 'burrow stop'))
  )
    throw new CliError('Stop cancelled: the agent runs on');
  const restarting = action === 'update' && options.restart;
  const stopTelling =
    restarting && io.isTTY.stderr
      ? door.on('sessions.action', (event) => {
          if (event.sessionId === session.id) stepLine(event, io);
        })
      : undefined;
  const result = await door
    .call('sessions.run', {
      profileId,
      sessionId: session.id,
      action: restarting ? 'update-and-restart' : action,
    })
    .finally(() => stopTelling?.());
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
