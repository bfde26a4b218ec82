import { expect, it } from 'vitest';
import { FleetService } from '../../../../core/fleet/service.ts';
import type { Agent } from '../../../../shared/app/agents.ts';
import type { ActionResult } from '../../../../shared/app/sessions/actions.ts';
import { listedAgent as agent } from '../../../support/listed-agents.ts';

/** A fleet whose run changes its agents as core's registry would, at the moment `at` says. */
function fleetOf(agents: Agent[], outcome: (agent: Agent) => ActionResult) {
  let at = 0;
  const service = new FleetService({
    agents: () => agents,
    profileName: () => 'Acme',
    listSessions: async () => [],
    run: async (request) => {
      const index = agents.findIndex((a) => a.session.id === request.sessionId);
      const was = agents[index] as Agent;
      const result = outcome(was);
      at += 10;
      // A failed restart gives the agent back online, from now on.
      agents[index] = { ...was, since: at };
      return result;
    },
  });
  return service;
}

it("tells each outcome with the agent's since once core had taken it in", async () => {
  const agents = [agent('web'), agent('db'), agent('win', { state: 'offline' })];
  const service = fleetOf(agents, (a) => ({
    ok: false,
    action: 'restart',
    profileId: 'acme',
    sessionId: a.session.id,
    step: 'restart',
    reason: 'no answer',
    errorCode: null,
    operationId: null,
  }));
  const done = await service.run({
    action: 'restart',
    agents: agents.map((a) => ({ profileId: 'acme', agentId: a.id })),
  });
  const sinceOf = (name: string) => done.results.find((r) => r.name === name)?.since;
  expect(sinceOf('web')).toBe(agents.find((a) => a.name === 'web')?.since);
  expect(sinceOf('db')).toBe(agents.find((a) => a.name === 'db')?.since);
  expect(new Set([sinceOf('web'), sinceOf('db')])).toEqual(new Set([10, 20]));
  // Left out before any call: no outcome, nothing to hold.
  expect(done.results.find((r) => r.name === 'win')).toMatchObject({ since: null, result: null });
});
