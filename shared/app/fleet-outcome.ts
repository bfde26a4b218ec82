import type { Agent, AgentState } from './agents.ts';
import type { BulkAgentResult } from './fleet.ts';
import type { SessionAction } from './sessions/rules.ts';

/*
 * What a bulk action's outcome still says of an agent. An outcome is about one session as the
 * action left it: it holds until the agent's state moves on (or the agent is on another session),
 * and a row shows it only where the agent's state does not say it already.
 */

/** The state a successful action aims at: once core confirms it, the outcome is still true. */
const AIMED: Partial<Record<SessionAction, AgentState>> = { stop: 'stopped' };

/** Whether `result` is still true of `agent` (as core tells the agent now). */
export function outcomeHolds(result: BulkAgentResult, agent: Agent | undefined): boolean {
  const outcome = result.result;
  if (outcome === null || agent === undefined || result.since === null) return false;
  if (agent.session.id !== outcome.sessionId) return false;
  if (agent.since <= result.since) return true;
  return outcome.ok && AIMED[outcome.action] === agent.state;
}

/**
 * The outcome in the agent's row, while it holds: a failure and its reason. A success is said by
 * the agent's state (and core's note of its last change), which a row shows anyway.
 */
export function outcomeWords(result: BulkAgentResult, agent: Agent | undefined): string | null {
  const outcome = result.result;
  return outcome !== null && !outcome.ok && outcomeHolds(result, agent)
    ? `Failed: ${outcome.reason}`
    : null;
}
