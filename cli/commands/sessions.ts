import { defineCommand } from '../command.ts';
import type { DoorAccount } from '../door.ts';

const seconds = (interval: string | undefined) => Number(interval ?? '5');

export default defineCommand({
  summary: "the profile's tunnel sessions: agent, session id, region, version, started",
  details:
    'With --watch, then a line each time a session comes online or goes, until Ctrl-C ' +
    '(with --json, one JSON object a line); an agent is gone once two polls in a row missed ' +
    'it, as the app says. While the app runs, its monitor tells and --interval is its own.',
  args: [],
  options: {
    watch: { type: 'boolean', help: 'keep listening for sessions that come and go' },
    interval: {
      type: 'string',
      value: 'SECS',
      help: 'how often --watch asks (default 5; 2 to 86400)',
    },
  },
  refusal(values) {
    const interval = seconds(values.interval);
    // Within a quarter of the service's 120 requests a minute, as the app's own polling keeps;
    // and at most a day, as a timer longer than 2^31 ms fires at once and would poll without a
    // pause.
    if (!(interval >= 2 && interval <= 86_400))
      return '--interval must be a number of seconds, at least 2 and at most 86400';
    if (values.interval !== undefined && values.watch !== true)
      return '--interval goes with --watch';
    return undefined;
  },
  examples: ['burrow sessions --profile Prod', 'burrow sessions --watch --interval 10 --json'],
  run: async ({ values, options, io }) => {
    const [{ sessionsCommand }, { openDoor }] = await Promise.all([
      import('../sessions.ts'),
      import('../door.ts'),
    ]);
    const given = { ...options, watch: values.watch, intervalMs: seconds(values.interval) * 1000 };
    const { door, accounts } = await openDoor(given, io);
    try {
      return await sessionsCommand(door, accounts[0] as DoorAccount, given, io);
    } finally {
      await door.close();
    }
  },
});
