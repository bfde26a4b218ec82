import type { TunnelSession } from '../shared/api/tunnel-sessions.ts';
import { agentName } from '../shared/app/monitor.ts';
import { setTimeout } from 'node:timers/promises';
import { ApiError } from '../core/api/errors.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { failureLines, table, writeJson, type Io } from './io.ts';
import type { Options } from './args.ts';
import type { Target } from './target.ts';

/** A session that came or went, as a line of text or of JSON. */
function eventLine(event: 'online' | 'gone', s: TunnelSession, at: Date, json: boolean): string {
  if (json)
    return `${JSON.stringify({ event, at: at.toISOString(), session: { agent: agentName(s) ?? null, ...s } })}\n`;
  const time = at.toISOString().slice(11, 19);
  const fields = [agentName(s) ?? '-', s.id, s.region, s.agent_version].map(escapeControls);
  return `${time}  ${event.padEnd(6)}  ${fields.join('  ')}\n`;
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
    io.stdout.write(`No tunnel sessions on ${escapeControls(target.label)}: no agent is online.\n`);
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
