import { defineCommand } from '../command.ts';

export default defineCommand({
  summary: "the profile's whole configuration as a snapshot (JSON), to stdout or -o FILE",
  details:
    'Secrets the API returns (OAuth/OIDC client secrets, webhook secrets) are left out unless ' +
    '--with-secrets; a file holding them is written readable by you alone (0600).',
  args: [],
  options: {
    output: { type: 'string', short: 'o', value: 'FILE', help: 'write the snapshot to FILE' },
    'with-secrets': { type: 'boolean', help: 'keep the secrets the API returns' },
  },
  examples: [
    'burrow export -o prod.json --profile Prod',
    'burrow export --with-secrets -o prod.json --profile Prod',
  ],
  run: async ({ values, options, io }) => {
    const { exportCommand } = await import('../snapshots.ts');
    return exportCommand(
      {
        ...options,
        ...(values.output !== undefined && { output: values.output }),
        withSecrets: values['with-secrets'],
      },
      io,
    );
  },
});
