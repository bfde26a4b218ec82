/**
 * How long a person waits for "Agent offline" at default settings (a poll every 5 s, the
 * default rate limit of 120 a minute on both sides, no time scaling): agents of the library in
 * this process, one at a time leaving at a different moment of the poll interval, timed from
 * the session's removal to the notifier's `offline` notification; and the most requests the
 * monitor had in any window, as a share of the limit (as its governor counts them).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiClient } from '../core/api/client.ts';
import { RateGovernor } from '../core/api/governor.ts';
import { DEFAULT_POLL_INTERVAL_MS } from '../core/monitor/cadence.ts';
import { createSessionMonitor } from '../core/monitor/monitor.ts';
import { Notifier } from '../core/notify/notifier.ts';
import { SettingsService } from '../core/settings/settings.ts';
import { openConfStore } from '../core/store.ts';
import { startSandbox } from '../sandbox/index.ts';
import { agentToken, startAgent, waitFor } from './fleet.ts';

const KEY = 'bench-notice-key';
const PROFILE = 'bench';

/**
 * Seconds from each agent's removal to its offline notification, `samples` agents in turn, and
 * the peak share of the rate limit the polls used.
 */
export async function offlineNotices(
  size: number,
  samples: number,
): Promise<{ seconds: number[]; budget: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-bench-notice-'));
  const sandbox = await startSandbox({ apiKey: KEY });
  const token = await agentToken(sandbox.url, KEY);
  const agents = Array.from({ length: size }, (_, i) =>
    startAgent({ url: sandbox.agentUrl, authtoken: token, metadata: `notice agent ${i}` }),
  );
  await Promise.all(agents.map((agent) => agent.online(60_000)));

  const governor = new RateGovernor();
  let peak = 0;
  governor.onChange((state) => (peak = Math.max(peak, state.used)));
  const monitor = createSessionMonitor({
    clientFor: (_id, onEvent) =>
      createApiClient({ baseUrl: sandbox.url, apiKey: KEY, governor, onEvent }),
  });
  const notifier = new Notifier({
    settings: new SettingsService(await openConfStore(dir)),
    profileNames: () => ({ [PROFILE]: 'Bench' }),
    // The bench only measures when notices come: their actions are never clicked.
    runSession: () => Promise.reject(new Error('not in the bench')),
    mute: () => undefined,
  });
  let noticed = 0;
  monitor.onEvent((event) => notifier.hear(event));
  notifier.onNotification((notification) => {
    if (notification.kind === 'offline') noticed = performance.now();
  });
  monitor.setProfiles([PROFILE]);
  await waitFor(() => (monitor.snapshot().profiles[0]?.polls ?? 0) >= 1, 'first poll');

  try {
    const seconds: number[] = [];
    for (let k = 0; k < samples; k++) {
      // Each agent leaves at another moment of the interval: the wait depends on it.
      await sleep((DEFAULT_POLL_INTERVAL_MS * k) / samples);
      noticed = 0;
      const removed = performance.now();
      await agents[(k * 7919) % agents.length]?.stop();
      await waitFor(() => noticed > 0, 'offline notification');
      seconds.push((noticed - removed) / 1000);
    }
    return { seconds, budget: peak / governor.limit.requests };
  } finally {
    await monitor.close();
    await Promise.all(agents.map((agent) => agent.stop()));
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}
