import { describe, expect, it } from 'vitest';
import { rolloutLine } from '../../../../core/fleet/rollout-line.ts';
import { RolloutRun, type RolloutDeps } from '../../../../core/fleet/rollout.ts';
import type { Agent } from '../../../../shared/app/agents.ts';
import type { Rollout, RolloutAgentState } from '../../../../shared/app/fleet.ts';
import type { ActionResult, ActionStep } from '../../../../shared/app/sessions/actions.ts';
import { listedAgent } from '../../../support/listed-agents.ts';

/** One argument only: `names.map(agent)` passes each index too. */
const agent = (name: string): Agent => listedAgent(name);

const failure = (a: Agent, step: ActionStep, reason = 'refused'): ActionResult => ({
  ok: false,
  action: 'update-and-restart',
  profileId: 'acme',
  sessionId: a.session.id,
  step,
  reason,
  errorCode: null,
  operationId: null,
});

/** A rollout whose agents' runs `outcome` answers, each as the test says. */
function rolloutOf(
  agents: Agent[],
  outcome: (a: Agent, signal: AbortSignal | undefined) => Promise<ActionResult>,
  onFailure: 'stop' | 'skip' = 'stop',
) {
  const changes: Rollout[] = [];
  const deps: RolloutDeps = {
    run: (request, options) =>
      outcome(agents.find((a) => a.session.id === request.sessionId) as Agent, options.signal),
    finder: () => async () => {
      throw new Error('not looked for here');
    },
    now: () => 0,
    onChange: (rollout) => changes.push(rollout),
    onEvent: () => undefined,
  };
  const run = new RolloutRun(
    'ro_1',
    agents.map((a) => ({ agent: a, profileName: 'Acme' })),
    { batch: 1, canary: 0, onFailure, onlineTimeoutMs: 60_000 },
    deps,
  );
  return { run, changes };
}

const states = (rollout: Rollout) =>
  Object.fromEntries(rollout.agents.map((a) => [a.name, [a.state, a.reason]]));

describe('RolloutRun', () => {
  it('says "not started" of the agents a failure kept it from, and counts outcomes', async () => {
    const fleet = ['a', 'b', 'c'].map(agent);
    const { run } = rolloutOf(fleet, async (a) => failure(a, 'update', 'update checks are off'));
    const ended = await run.ended;
    expect(ended.state).toBe('stopped');
    expect(states(ended)).toEqual({
      a: ['failed', 'update checks are off'],
      b: ['not-started', null],
      c: ['not-started', null],
    });
    expect(ended.line).toBe('Rolling update stopped by a failure: 1 failed, 2 not started');
  });

  it('says how far the agent under way got when cancelled, as its row would', async () => {
    const fleet = ['a', 'b'].map(agent);
    const { run } = rolloutOf(
      fleet,
      (a, signal) =>
        new Promise((resolve) => {
          // Updated, and waiting its 10 s before the restart: the cancel lands there.
          signal?.addEventListener('abort', () => resolve(failure(a, 'wait', 'cancelled')));
        }),
    );
    run.cancel();
    const ended = await run.ended;
    expect(states(ended)).toEqual({
      a: ['cancelled', 'Cancelled once updated: restart it to run the new version'],
      b: ['not-started', null],
    });
    expect(ended.line).toBe('Rolling update cancelled: 1 cancelled, 1 not started');
  });

  it('is put away once ended, never while it runs', async () => {
    let finish = () => undefined as void;
    const fleet = [agent('a')];
    const { run, changes } = rolloutOf(
      fleet,
      (a) => new Promise((resolve) => (finish = () => resolve(failure(a, 'update')))),
      'skip',
    );
    run.dismiss();
    expect(run.snapshot().dismissed).toBe(false);
    finish();
    await run.ended;
    run.dismiss();
    expect(changes.at(-1)).toMatchObject({
      dismissed: true,
      line: 'Rolling update done: 1 failed',
    });
  });
});

describe('rolloutLine', () => {
  const of = (...list: RolloutAgentState[]) => list.map((state) => ({ state }));

  it('counts how far while it runs, failures said', () => {
    expect(rolloutLine('running', of('done', 'failed', 'updating', 'pending'))).toBe(
      'Rolling update: 2 of 4, 1 failed',
    );
    expect(rolloutLine('paused', of('done', 'pending'))).toBe('Rolling update paused: 1 of 2');
  });

  it('counts outcomes once ended: never "6 of 6" with 2 failed', () => {
    const six = of('done', 'done', 'restart-yourself', 'done', 'failed', 'failed');
    expect(rolloutLine('done', six)).toBe('Rolling update done: 4 updated, 2 failed');
    expect(rolloutLine('done', of('done', 'skipped'))).toBe(
      'Rolling update done: 1 updated, 1 left out',
    );
    expect(rolloutLine('done', [])).toBe('Rolling update done: no agent');
  });
});
