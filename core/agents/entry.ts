import { agentId, GONE_STATES, type Agent, type AgentState } from '../../shared/app/agents.ts';
import { ERRORS } from '../../shared/api/errors/errors.ts';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { agentDisplayName, agentKey } from '../../shared/app/monitor.ts';
import type { ActionResult } from '../../shared/app/sessions/actions.ts';
import { COMMAND_REFUSALS } from '../../shared/app/sessions/rules.ts';
import { band, mark, startHistory } from './history.ts';

/*
 * One agent's changes of state: what a poll listing it, a command's outcome or a new session does
 * to it. The registry finds the agent; these decide what becomes of it.
 */

/** A command the API accepted but a poll never confirmed (a stop the agent ignored) ends after this. */
const COMMAND_MS = 60_000;
export const UPDATE_READY = 'The agent has updated: restart it to run the new version.';

/** One agent and what core remembers of it beyond the contract. */
export type Entry = {
  agent: Agent;
  /** The session whose answer set `updateBlocked`: a new session may answer otherwise. */
  blockedFor: string | null;
  /** Successful polls without it while the monitor did not track it, and since when. */
  absentPolls: number;
  absentSince: number | null;
  /** The command behind a restarting/stopping/updating state has answered. */
  settled: boolean;
};

export const COMMANDING: readonly AgentState[] = ['restarting', 'stopping', 'updating'];
const CODE_CHECKS_OFF = ERRORS.updateChecksDisabled.code;
const CODE_UPDATED = ERRORS.updatedAwaitingRestart.code;
export const isGone = (state: AgentState) => GONE_STATES.includes(state);

/** "restarted · new session ts_…", "updated 3.1.2 → 3.3.0". */
export function noteOf(kind: 'restarted' | 'updated', detail: string): string {
  return kind === 'updated' ? `updated ${detail}` : `restarted · ${detail}`;
}

export function createdEntry(profileId: string, session: TunnelSession, at: number): Entry {
  const key = agentKey(session);
  return {
    agent: {
      id: agentId(profileId, key),
      profileId,
      key,
      name: agentDisplayName(session),
      state: 'online',
      since: at,
      session,
      lastSeenAt: at,
      note: null,
      updateBlocked: null,
      step: null,
      history: startHistory('online', at),
    },
    blockedFor: null,
    absentPolls: 0,
    absentSince: null,
    settled: true,
  };
}

export function become(entry: Entry, state: AgentState, at: number): boolean {
  const { agent } = entry;
  if (agent.state === state) return false;
  agent.state = state;
  agent.since = at;
  agent.history = band(agent.history, isGone(state) ? 'offline' : 'online', at);
  return true;
}

function blocked(entry: Entry, reason: string): void {
  entry.agent.updateBlocked = reason;
  entry.blockedFor = entry.agent.session.id;
}

/** The agent is on a new session, running: what its old session answered no longer holds. */
export function moved(entry: Entry, session: TunnelSession, at: number): void {
  const { agent } = entry;
  agent.session = session;
  agent.name = agentDisplayName(session);
  agent.lastSeenAt = Math.max(agent.lastSeenAt, at);
  agent.step = null;
  entry.settled = true;
  entry.absentPolls = 0;
  entry.absentSince = null;
  if (entry.blockedFor !== session.id) {
    agent.updateBlocked = null;
    entry.blockedFor = null;
  }
  become(entry, 'online', at);
}

/** A successful poll lists the agent with `session`. */
export function present(entry: Entry, session: TunnelSession, at: number): boolean {
  const { agent } = entry;
  agent.lastSeenAt = at;
  entry.absentPolls = 0;
  entry.absentSince = null;
  const wasGone = isGone(agent.state);
  if (agent.session.id !== session.id) {
    // Back on a new session with no event of it (after an outage, or a restart of Burrow).
    moved(entry, session, at);
    if (wasGone) agent.history = mark(agent.history, 'online', at, `new session ${session.id}`);
    return true;
  }
  agent.session = session;
  switch (agent.state) {
    case 'lost':
    case 'offline':
    case 'stopped':
      if (wasGone) agent.history = mark(agent.history, 'online', at);
      return become(entry, 'online', at);
    case 'restarting':
    case 'stopping':
      // Accepted long ago and the session is still here: the command did not take.
      return entry.settled && at - agent.since > COMMAND_MS ? become(entry, 'online', at) : false;
    default:
      return false;
  }
}

export function succeeded(
  entry: Entry,
  result: Extract<ActionResult, { ok: true }>,
  now: number,
): void {
  if (result.action === 'update') {
    become(entry, 'update-ready', now);
    blocked(entry, UPDATE_READY);
    entry.agent.note = 'updated · restart to apply';
    return;
  }
  if (result.action !== 'update-and-restart' || !result.successor) return;
  // Found before the monitor's poll: the row moves on now, the monitor's event adds nothing.
  const { before, after } = result.version ?? { before: '', after: '' };
  const detail = before === after ? `new session ${result.successor.id}` : `${before} → ${after}`;
  const kind = before === after ? 'restarted' : 'updated';
  moved(entry, result.successor, now);
  entry.agent.note = result.note ?? noteOf(kind, detail);
  entry.agent.history = mark(entry.agent.history, kind, now, detail);
}

export function failed(
  entry: Entry,
  result: Extract<ActionResult, { ok: false }>,
  now: number,
): void {
  if (result.errorCode === CODE_CHECKS_OFF)
    blocked(entry, COMMAND_REFUSALS.updateChecksDisabled ?? result.reason);
  // Updated already (this answer says so, or the update went through before the restart failed).
  const updated =
    result.errorCode === CODE_UPDATED ||
    (result.action === 'update-and-restart' &&
      (result.step === 'wait' || result.step === 'restart'));
  if (updated) {
    blocked(entry, UPDATE_READY);
    become(entry, 'update-ready', now);
  } else if (result.step !== 'find' && COMMANDING.includes(entry.agent.state))
    // The command did nothing; a restart not back in time is the monitor's to judge.
    become(entry, 'online', now);
}
