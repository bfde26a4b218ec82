import { defineCommand, withTarget } from '../command.ts';
import { AGENT_DETAILS, actionCommand } from '../session-actions.ts';

export default defineCommand({
  summary: 'stop an agent (asks first unless --yes)',
  details: AGENT_DETAILS,
  args: ['AGENT'],
  options: { yes: { type: 'boolean', short: 'y', help: 'do not ask for confirmation' } },
  examples: ['burrow stop laptop', 'burrow stop laptop --yes --json'],
  run: ({ args: [agent = ''], values, options, io }) =>
    withTarget(options, io, (target) =>
      actionCommand('stop', target, agent, { ...options, yes: values.yes }, io),
    ),
});
