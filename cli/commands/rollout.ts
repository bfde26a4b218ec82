import { RolloutOptions } from '../../shared/app/fleet.ts';
import { defineCommand, YES_OPTION } from '../command.ts';
import { openFleet, SELECTION_OPTIONS, selectionRefusal } from '../fleet-options.ts';

const whole = (text: string | undefined, fallback: number) =>
  text === undefined ? fallback : /^\d{1,6}$/.test(text) ? Number(text) : NaN;

function rolloutOptions(values: {
  batch: string | undefined;
  canary: string | undefined;
  'on-failure': string | undefined;
  timeout: string | undefined;
}) {
  return RolloutOptions.safeParse({
    batch: whole(values.batch, 1),
    canary: whole(values.canary, 0),
    onFailure: values['on-failure'] ?? 'stop',
    onlineTimeoutMs: whole(values.timeout, 60) * 1000,
  });
}

const REFUSALS: Readonly<Record<string, string>> = {
  batch: '--batch must be a whole number from 1 to 50',
  canary: '--canary must be a whole number from 0 to 50',
  onFailure: '--on-failure must be stop or skip',
  onlineTimeoutMs: '--timeout must be a whole number of seconds from 10 to 600',
};

export default defineCommand({
  summary: 'update the selected agents a batch at a time, each restarted and back before the next',
  details:
    'Each agent is updated, left 10 s for the update to settle, restarted, and waited for until ' +
    'its new session is online; Windows agents are updated only (restart them yourself). With ' +
    '--json, one JSON object a line per step. Exit 0: every agent done; 3: stopped or partly ' +
    'done (the failed agent named on stderr). Ctrl-C cancels.',
  args: [],
  options: {
    ...SELECTION_OPTIONS,
    batch: { type: 'string', value: 'N', help: 'agents updated together (default 1)' },
    canary: { type: 'string', value: 'N', help: 'a first batch of N before the others' },
    'on-failure': { type: 'string', value: 'stop|skip', help: 'on a failed agent (default stop)' },
    timeout: {
      type: 'string',
      value: 'SECS',
      help: 'wait for each agent to come back (default 60)',
    },
    yes: YES_OPTION,
  },
  refusal(values) {
    const parsed = rolloutOptions(values);
    const field = parsed.error?.issues[0]?.path[0];
    return selectionRefusal(values) ?? (field === undefined ? undefined : REFUSALS[String(field)]);
  },
  examples: [
    'burrow rollout --all-profiles --version-below 3.3.0 --batch 5 --canary 1',
    'burrow rollout --os linux --on-failure skip --yes --json',
  ],
  run: async ({ values, options, io }) => {
    const rollout = rolloutOptions(values);
    if (!rollout.success) return 1;
    const { rolloutCommand } = await import('../fleet.ts');
    const fleet = await openFleet(options, values, io);
    try {
      return await rolloutCommand(fleet, rollout.data, { ...options, yes: values.yes }, io);
    } finally {
      await fleet.close();
    }
  },
});
