import { defineCommand } from '../command.ts';
import { openFleet, SELECTION_OPTIONS, selectionRefusal } from '../fleet-options.ts';

export default defineCommand({
  summary: 'the agents of a profile, or of every profile: name, state, os, version, region',
  details:
    'The selection options narrow the list as they narrow restart, stop, update and rollout.',
  args: [],
  options: SELECTION_OPTIONS,
  refusal: (values) => selectionRefusal(values),
  examples: [
    'burrow agents --all-profiles',
    'burrow agents --os linux --version-below 3.2.0 --json',
  ],
  run: async ({ values, options, io }) => {
    const { agentsCommand } = await import('../fleet.ts');
    const fleet = await openFleet(options, values, io);
    try {
      return agentsCommand(fleet, options, io);
    } finally {
      await fleet.close();
    }
  },
});
