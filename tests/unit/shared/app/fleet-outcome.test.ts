import { expect, it } from 'vitest';
import type { Agent } from '../../../../shared/app/agents.ts';
import type { BulkAgentResult } from '../../../../shared/app/fleet.ts';
import { outcomeHolds, outcomeWords } from '../../../../shared/app/fleet-outcome.ts';
import type { SessionAction } from '../../../../shared/app/sessions/rules.ts';
import { session } from '../../../support/tunnel-sessions.ts';

const on = session({ id: 'ts_before' });
const agent = (over: Partial<Agent> = {}) =>
  ({ id: 'ag_1', state: 'online', since: 100, session: on, ...over }) as Agent;

function result(action: SessionAction, ok: boolean, since: number | null = 100): BulkAgentResult {
  const subject = { action, profileId: 'p', sessionId: on.id };
  return {
    agent: { profileId: 'p', agentId: 'ag_1' },
    name: 'box',
    since,
    result: ok
      ? { ok: true, ...subject }
      : {
          ok: false,
          ...subject,
          step: 'restart',
          reason: 'no answer',
          errorCode: null,
          operationId: null,
        },
  };
}

it('holds while the agent is as the action left it, on the same session', () => {
  expect(outcomeHolds(result('restart', false), agent())).toBe(true);
  expect(outcomeWords(result('restart', false), agent())).toBe('Failed: no answer');
  // A snapshot older than the outcome has not moved on either.
  expect(outcomeHolds(result('restart', false), agent({ since: 90 }))).toBe(true);
});

it('goes once the agent moves on, is on another session, or is not known', () => {
  const failed = result('update', false);
  expect(outcomeWords(failed, agent({ state: 'lost', since: 200 }))).toBeNull();
  expect(outcomeWords(failed, agent({ session: session({ id: 'ts_after' }) }))).toBeNull();
  expect(outcomeWords(failed, undefined)).toBeNull();
  expect(outcomeHolds(result('stop', true, null), agent())).toBe(false);
  expect(outcomeHolds({ ...failed, result: null }, agent())).toBe(false);
});

it('holds a stop once core confirms the agent stopped, and not once it is back', () => {
  const stopped = result('stop', true);
  expect(outcomeHolds(stopped, agent({ state: 'stopped', since: 200 }))).toBe(true);
  expect(outcomeHolds(stopped, agent({ state: 'online', since: 300 }))).toBe(false);
  // A restart's aim is a new session: its old one confirmed offline is not it.
  expect(outcomeHolds(result('restart', true), agent({ state: 'offline', since: 200 }))).toBe(
    false,
  );
});

it("says nothing of a success: the agent's state says it", () => {
  expect(outcomeWords(result('stop', true), agent({ state: 'stopping' }))).toBeNull();
});
