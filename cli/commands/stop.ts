import { defineCommand, withTarget } from '../command.ts';
import { agentOrSelection } from '../fleet.ts';
import { SELECTION_DETAILS, SELECTION_OPTIONS, selectionRefusal } from '../fleet-options.ts';
import { AGENT_DETAILS, actionCommand } from '../session-actions.ts';

export default defineCommand({
  summary: 'stop an agent, or every agent the selection options pick (asks first unless --yes)',
  details: `${AGENT_DETAILS} ${SELECTION_DETAILS}`,
  args: ['[AGENT]'],
  options: {
    ...SELECTION_OPTIONS,
    yes: { type: 'boolean', short: 'y', help: 'do not ask for confirmation' },
  },
  refusal: (values) => selectionRefusal(values),
  examples: [
    'burrow stop laptop',
    'burrow stop laptop --yes --json',
    'burrow stop --state lost --yes',
  ],
  run: ({ args: [agent], values, options, io }) => {
    const asked = { ...options, yes: values.yes };
    return agentOrSelection('stop', agent, values, asked, io, (one) =>
      withTarget(options, io, (target) => actionCommand('stop', target, one, asked, io)),
    );
  },
});
