import { defineCommand, YES_OPTION } from '../command.ts';
import {
  AGENT_DETAILS,
  SELECTION_DETAILS,
  SELECTION_OPTIONS,
  selectionRefusal,
} from '../fleet-options.ts';

export default defineCommand({
  summary: 'update an agent, or every agent the selection options pick, to the newest of its major',
  details:
    `${AGENT_DETAILS} ${SELECTION_DETAILS} With --restart, then waits for the update to settle ` +
    '(10 s), restarts the agent and waits for it to come back, telling each step on stderr when ' +
    'it is a terminal ("burrow rollout" does this a batch at a time).',
  args: ['[AGENT]'],
  options: {
    ...SELECTION_OPTIONS,
    restart: { type: 'boolean', help: 'then restart it on the new version and wait for it' },
    yes: YES_OPTION,
  },
  refusal: (values) => selectionRefusal(values),
  examples: [
    'burrow update build-box',
    'burrow update build-box --restart',
    'burrow update --all-profiles --version-below 3.3.0 --yes',
  ],
  run: async ({ args: [agent], values, options, io }) => {
    const [{ agentOrSelection }, { actionCommand }] = await Promise.all([
      import('../fleet.ts'),
      import('../session-actions.ts'),
    ]);
    const given = { ...options, restart: values.restart, yes: values.yes };
    const action = values.restart ? 'update-and-restart' : 'update';
    return agentOrSelection(action, agent, values, given, io, (one) =>
      actionCommand('update', one, given, io),
    );
  },
});
