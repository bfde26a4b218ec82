import { defineCommand, withTarget } from '../command.ts';
import { AGENT_DETAILS, actionCommand } from '../session-actions.ts';

export default defineCommand({
  summary: 'update an agent to the newest version of its major version',
  details:
    `${AGENT_DETAILS} With --restart, then waits for the update to settle (10 s), restarts ` +
    'the agent and waits for it to come back, telling each step on stderr when it is a terminal.',
  args: ['AGENT'],
  options: {
    restart: { type: 'boolean', help: 'then restart it on the new version and wait for it' },
  },
  examples: ['burrow update build-box', 'burrow update build-box --restart'],
  run: ({ args: [agent = ''], values, options, io }) =>
    withTarget(options, io, (target) =>
      actionCommand('update', target, agent, { ...options, restart: values.restart }, io),
    ),
});
