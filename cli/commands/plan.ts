import { defineCommand } from '../command.ts';

export default defineCommand({
  summary: 'what applying a snapshot to the profile would change; exit 0: nothing, 2: changes',
  details:
    'Resources of the profile that the snapshot lacks are left alone unless --prune, which ' +
    'plans their deletion. Secrets are masked. "plan --from-profile P" (no FILE) plans the ' +
    'profile P of the app, as it is now, against this one.',
  args: ['FILE'],
  argsReplacedBy: 'from-profile',
  options: {
    'from-profile': {
      type: 'string',
      value: 'P',
      help: 'the profile P of the app to plan, instead of FILE',
    },
    prune: { type: 'boolean', help: 'also delete what the snapshot does not have' },
  },
  examples: [
    'burrow plan prod.json --profile Staging',
    'burrow plan --from-profile Prod --profile Staging',
    'BURROW_API_KEY=… burrow plan prod.json --api-url https://api.example.com --json',
  ],
  run: async ({ args: [file = ''], values, options, io }) => {
    const { planCommand } = await import('../snapshots.ts');
    return planCommand(
      file,
      {
        ...options,
        prune: values.prune,
        ...(values['from-profile'] !== undefined && { fromProfile: values['from-profile'] }),
      },
      io,
    );
  },
});
