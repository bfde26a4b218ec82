import type { Rollout, RolloutAgent, RolloutAgentState } from '../../shared/app/fleet.ts';

/** The states an agent's part in a rollout ends in. */
export const FINAL: readonly RolloutAgentState[] = [
  'done',
  'restart-yourself',
  'failed',
  'skipped',
];

/** The outcomes an ended rollout counts, in the order its line says them. */
const OUTCOMES: readonly [readonly RolloutAgentState[], string][] = [
  [['done', 'restart-yourself'], 'updated'],
  [['failed'], 'failed'],
  [['skipped'], 'left out'],
  [['cancelled'], 'cancelled'],
  [['not-started'], 'not started'],
];

/**
 * The rollout's one line: how far while it runs ("Rolling update: 4 of 12, 1 failed"), and once
 * it ended, what became of its agents ("Rolling update done: 10 updated, 2 failed").
 */
export function rolloutLine(
  state: Rollout['state'],
  agents: readonly Pick<RolloutAgent, 'state'>[],
): string {
  const count = (states: readonly RolloutAgentState[]) =>
    agents.filter((a) => states.includes(a.state)).length;
  if (state === 'running' || state === 'paused') {
    const failed = count(['failed']);
    const paused = state === 'paused' ? ' paused' : '';
    return `Rolling update${paused}: ${count(FINAL)} of ${agents.length}${failed > 0 ? `, ${failed} failed` : ''}`;
  }
  const ended = { done: 'done', stopped: 'stopped by a failure', cancelled: 'cancelled' }[state];
  const outcomes = OUTCOMES.flatMap(([states, word]) => {
    const n = count(states);
    return n > 0 ? [`${n} ${word}`] : [];
  });
  return `Rolling update ${ended}: ${outcomes.join(', ') || 'no agent'}`;
}
