import type { TunnelSession } from '../shared/api/kinds/tunnel-sessions.ts';
import { timeWords } from '../shared/app/clock.ts';
import { agentName, type MonitorEvent } from '../shared/app/monitor.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { CliError, jsonText, table, writeJson, type Io } from './io.ts';
import type { Options } from './args.ts';
import type { Door, DoorAccount } from './door.ts';
import { listedOn } from './session-actions.ts';

/** A session that came or went, as a line of text or of JSON. */
function eventLine(event: 'online' | 'gone', s: TunnelSession, at: Date, json: boolean): string {
  if (json)
    return `${jsonText({ event, at: at.toISOString(), session: { agent: agentName(s) ?? null, ...s } })}\n`;
  const time = at.toISOString().slice(11, 19);
  const fields = [agentName(s) ?? '-', s.id, s.region, s.agent_version].map(escapeControls);
  return `${time}  ${event.padEnd(6)}  ${fields.join('  ')}\n`;
}

/** What a monitor event says of sessions, as lines: a restart is its old session gone, its new one online. */
function sessionLines(event: MonitorEvent, json: boolean): string {
  const at = new Date(event.at);
  switch (event.kind) {
    case 'online':
      return eventLine('online', event.session, at, json);
    case 'offline':
      return event.sessions.map((s) => eventLine('gone', s, at, json)).join('');
    case 'stopped':
      return eventLine('gone', event.session, at, json);
    case 'restarted':
    case 'updated':
      return (
        eventLine('gone', event.previous, at, json) + eventLine('online', event.session, at, json)
      );
    default:
      return '';
  }
}

/**
 * Tells each session that comes or goes, as Burrow's monitor decides it (an agent is gone once
 * two polls in a row missed it, as the app says it), until the signal. A failed poll is said
 * once and tried again; a refused key ends the watch.
 */
function watch(
  door: Door,
  profileId: string,
  listed: readonly TunnelSession[],
  options: Options,
  io: Io,
) {
  return new Promise<number>((resolve, reject) => {
    const at = new Date();
    for (const s of listed) io.stdout.write(eventLine('online', s, at, options.json));
    let failing = false;
    const stop = door.on('monitor.event', (event) => {
      if (event.profileId !== profileId) return;
      if (event.kind === 'unauthorized') return end(() => reject(new CliError(event.reason)));
      if (event.kind === 'unreachable') {
        if (!failing) io.stderr.write(`burrow: ${escapeControls(event.reason)}; trying again\n`);
        failing = true;
        return;
      }
      if (event.kind === 'recovered') failing = false;
      io.stdout.write(sessionLines(event, options.json));
    });
    const end = (then: () => void) => {
      stop();
      io.signal?.removeEventListener('abort', stopped);
      then();
    };
    const stopped = () => end(() => resolve(0));
    if (io.signal?.aborted === true) return stopped();
    io.signal?.addEventListener('abort', stopped, { once: true });
  });
}

export async function sessionsCommand(
  door: Door,
  account: DoorAccount,
  options: Options,
  io: Io,
): Promise<number> {
  const sessions = await listedOn(door, account.profileId);
  if (options.watch) return watch(door, account.profileId, sessions, options, io);
  if (options.json) {
    writeJson(
      io,
      sessions.map((s) => ({ agent: agentName(s) ?? null, ...s })),
    );
    return 0;
  }
  if (sessions.length === 0) {
    io.stdout.write(`No tunnel sessions on ${escapeControls(account.name)}: no agent is online.\n`);
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
        // As the window says it ("3 minutes ago"); --json keeps the API's RFC 3339 time.
        timeWords(s.started_at),
      ]),
    ]),
  );
  return 0;
}
