import type { TunnelSession } from '../shared/api/tunnel-sessions.ts';
import { agentName } from '../shared/monitor.ts';
import { createSessionActions } from '../core/sessions/actions.ts';
import { CliError, confirm, table, writeJson, type Io } from './io.ts';
import type { Options } from './args.ts';
import type { Target } from './target.ts';

export async function sessionsCommand(target: Target, options: Options, io: Io): Promise<number> {
  const sessions = await target.client.tunnelSessions.listAll();
  if (options.json) {
    writeJson(
      io,
      sessions.map((s) => ({ agent: agentName(s) ?? null, ...s })),
    );
    return 0;
  }
  if (sessions.length === 0) {
    io.stdout.write(`No tunnel sessions on ${target.label}: no agent is online.\n`);
    return 0;
  }
  io.stdout.write(
    table([
      ['AGENT', 'SESSION', 'REGION', 'VERSION', 'OS', 'STARTED'],
      ...sessions.map((s) => [
        agentName(s) ?? '-',
        s.id,
        s.region,
        s.agent_version,
        s.os,
        s.started_at,
      ]),
    ]),
  );
  return 0;
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

export async function actionCommand(
  action: 'restart' | 'stop' | 'update',
  target: Target,
  agent: string,
  options: Options,
  io: Io,
): Promise<number> {
  const session = findSession(await target.client.tunnelSessions.listAll(), agent);
  const who = `${agentName(session) ?? 'the agent'} (${session.id})`;
  if (
    action === 'stop' &&
    !options.yes &&
    !(await confirm(io, `Stop ${who}? It will not come back by itself.`, 'burrow stop'))
  )
    throw new CliError('Stop cancelled: the agent runs on');
  const result = await createSessionActions({
    client: target.client,
    profileId: target.profileId,
  }).run(action, session);
  if (options.json) writeJson(io, result);
  if (!result.ok) {
    const ids = [result.errorCode, result.operationId].filter((x) => x !== null);
    throw new CliError(
      `${action} ${who}: ${result.reason}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}`,
    );
  }
  if (!options.json) {
    const done = { restart: 'restarts', stop: 'stopped', update: 'updates' }[action];
    io.stdout.write(action === 'stop' ? `${who} stopped.\n` : `${who} accepted: it ${done} now.\n`);
  }
  return 0;
}
