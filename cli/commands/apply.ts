import { defineCommand, YES_OPTION } from '../command.ts';

export default defineCommand({
  summary: 'apply a snapshot to the profile (shows the plan, asks first unless --yes)',
  details:
    'An apply that stops (an error, Ctrl-C, a crash) is carried on by running the same ' +
    'command again: nothing is created twice.',
  args: ['FILE'],
  options: {
    yes: YES_OPTION,
    prune: { type: 'boolean', help: 'also delete what the snapshot does not have' },
  },
  examples: ['burrow apply prod.json --profile Staging', 'burrow apply prod.json --yes --prune'],
  run: async ({ args: [file = ''], values, options, io }) => {
    const { applyCommand } = await import('../snapshots.ts');
    return applyCommand(file, { ...options, yes: values.yes, prune: values.prune }, io);
  },
});
