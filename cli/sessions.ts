import type { TunnelSession } from '../shared/api/tunnel-sessions.ts';
import type { ActionEvent } from '../shared/session-actions.ts';
import { agentName } from '../shared/monitor.ts';
import { createSessionActions } from '../core/sessions/actions.ts';
import { setTimeout } from 'node:timers/promises';
import { ApiError } from '../core/api/errors.ts';
import { CliError, confirm, failureLines, table, writeJson, type Io } from './io.ts';
import type { Options } from './args.ts';
import type { Target } from './target.ts';

/** A session that came or went, as a line of text or of JSON. */
function eventLine(event: 'online' | 'gone', s: TunnelSession, at: Date, json: boolean): string {
  if (json)
    return `${JSON.stringify({ event, at: at.toISOString(), session: { agent: agentName(s) ?? null, ...s } })}\n`;
  const time = at.toISOString().slice(11, 19);
  return `${time}  ${event.padEnd(6)}  ${agentName(s) ?? '-'}  ${s.id}  ${s.region}  ${s.agent_version}\n`;
}

/**
 * Lists again every `intervalMs` and tells each session that appeared or went, until the signal.
 * A failed poll is said once and tried again; a refused key ends the watch.
 */
async function watch(target: Target, first: TunnelSession[], options: Options, io: Io) {
  let known = new Map(first.map((s) => [s.id, s]));
  let failing = false;
  for (;;) {
    try {
      await setTimeout(options.intervalMs, undefined, { signal: io.signal });
    } catch {
      return 0;
    }
    let now: TunnelSession[];
    try {
      now = await target.client.tunnelSessions.listAll({
        priority: 'background',
        maxRetries: 0,
        signal: io.signal,
      });
      failing = false;
    } catch (error) {
      if (io.signal?.aborted === true) return 0;
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) throw error;
      if (!failing) io.stderr.write(`burrow: ${failureLines(error).join(' ')}; trying again\n`);
      failing = true;
      continue;
    }
    const at = new Date();
    const current = new Map(now.map((s) => [s.id, s]));
    const events = [
      ...now.filter((s) => !known.has(s.id)).map((s) => ['online', s] as const),
      ...[...known.values()].filter((s) => !current.has(s.id)).map((s) => ['gone', s] as const),
    ];
    for (const [event, s] of events) io.stdout.write(eventLine(event, s, at, options.json));
    known = current;
  }
}

export async function sessionsCommand(target: Target, options: Options, io: Io): Promise<number> {
  const sessions = await target.client.tunnelSessions.listAll();
  if (options.watch) {
    const at = new Date();
    for (const s of sessions) io.stdout.write(eventLine('online', s, at, options.json));
    return watch(target, sessions, options, io);
  }
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
  const restarting = action === 'update' && options.restart;
  const result = await createSessionActions({
    client: target.client,
    profileId: target.profileId,
    ...(restarting && io.isTTY.stderr && { onEvent: (event) => stepLine(event, io) }),
  }).run(restarting ? 'update-and-restart' : action, session);
  if (options.json) writeJson(io, result);
  if (!result.ok) {
    const ids = [result.errorCode, result.operationId].filter((x) => x !== null);
    throw new CliError(
      `${action} ${who}: ${result.reason}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}`,
    );
  }
  if (!options.json && restarting) {
    const { successor, version, note } = result;
    io.stdout.write(
      `${who} updated and restarted: now ${successor?.id ?? '?'} on ${version?.after ?? '?'}` +
        ` (was ${version?.before ?? '?'}).\n`,
    );
    if (note !== undefined) io.stderr.write(`${note}\n`);
  } else if (!options.json) {
    const done = { restart: 'restarts', stop: 'stopped', update: 'updates' }[action];
    io.stdout.write(action === 'stop' ? `${who} stopped.\n` : `${who} accepted: it ${done} now.\n`);
  }
  return 0;
}
