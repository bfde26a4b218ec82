import { defineCommand } from '../command.ts';
import { CliError } from '../io.ts';

export default defineCommand({
  summary: 'whether the profile changed since its baseline; exit 0: no drift, 2: drift',
  details:
    'The baseline is what "burrow drift --set" or the window\'s "Watch this account" kept, or ' +
    'an apply or an accepted drift since; --baseline FILE compares with a snapshot file instead ' +
    '(what a scheduled CI job does: with --api-url and BURROW_API_KEY it is needed). The drift ' +
    'is printed as the plan from the baseline to the live account; secrets are masked.',
  args: [],
  options: {
    baseline: { type: 'string', value: 'FILE', help: 'compare with the snapshot in FILE' },
    set: { type: 'boolean', help: "keep the profile's live configuration as its baseline" },
  },
  examples: [
    'burrow drift --set --profile Staging',
    'burrow drift --profile Staging --json',
    'BURROW_API_KEY=… burrow drift --api-url https://api.example.com --baseline prod.json',
  ],
  run: async ({ values, options, io }) => {
    if (values.set && values.baseline !== undefined)
      throw new CliError('--set keeps the live account as the baseline: it takes no --baseline');
    if (options.apiUrl !== undefined && values.baseline === undefined)
      throw new CliError(
        '--api-url keeps no baseline: compare with a snapshot file, --baseline FILE',
      );
    const flags = {
      set: values.set,
      json: options.json,
      ...(values.baseline !== undefined && { baseline: values.baseline }),
    };
    const { driftCommand } = await import('../drift.ts');
    return driftCommand(options, io, flags);
  },
});
