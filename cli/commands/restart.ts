import { defineCommand, withTarget } from '../command.ts';
import { AGENT_DETAILS, actionCommand } from '../session-actions.ts';

export default defineCommand({
  summary: 'restart an agent',
  details: AGENT_DETAILS,
  args: ['AGENT'],
  options: {},
  examples: ['burrow restart build-box', 'burrow restart build-box --profile Prod'],
  run: ({ args: [agent = ''], options, io }) =>
    withTarget(options, io, (target) => actionCommand('restart', target, agent, options, io)),
});
