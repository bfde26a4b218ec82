import { defineCommand, withTarget } from '../command.ts';
import { agentOrSelection } from '../fleet.ts';
import { SELECTION_DETAILS, SELECTION_OPTIONS, selectionRefusal } from '../fleet-options.ts';
import { AGENT_DETAILS, actionCommand } from '../session-actions.ts';

export default defineCommand({
  summary: 'restart an agent, or every agent the selection options pick',
  details: `${AGENT_DETAILS} ${SELECTION_DETAILS}`,
  args: ['[AGENT]'],
  options: { ...SELECTION_OPTIONS, yes: { type: 'boolean', short: 'y', help: 'do not ask first' } },
  refusal: (values) => selectionRefusal(values),
  examples: [
    'burrow restart build-box',
    'burrow restart build-box --profile Prod',
    "burrow restart --all-profiles --name 'build-*' --yes",
  ],
  run: ({ args: [agent], values, options, io }) =>
    agentOrSelection('restart', agent, values, { ...options, yes: values.yes }, io, (one) =>
      withTarget(options, io, (target) => actionCommand('restart', target, one, options, io)),
    ),
});
