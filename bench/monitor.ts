/**
 * `npm run bench:monitor`: the session monitor against the sandbox with 10, 100 and 1,000 real
 * agents (the agent library, in this process), on the monitor's own timer. For each size:
 *
 * - detection: agents stopped one at a time right after a poll; the polls it took until the
 *   `offline` event (the rule is two polls, so 2 is the best there is);
 * - budget: the most requests the monitor had in any rolling window, as a share of the limit;
 * - false offline: `offline` events while the sandbox is stopped and started again on the same
 *   port and data, its agents reconnecting with new session ids.
 *
 * Then, unscaled and at default settings (bench/monitor-notice.ts): the seconds from an agent's
 * session ending to the offline notification, with 10 and 100 agents, and the most requests in
 * any minute as a share of the limit; and the heap of the
 * monitor and the agents service over 10,000 polls with churn and a flapping API
 * (bench/monitor-heap.ts).
 *
 * The first part's time is scaled 20× so that it takes about a minute: the rate limit is 120 per 3 s (not
 * 60 s) on both sides, the base poll interval 250 ms (not 5 s), and the agents' reconnection
 * backoff, the monitor's confirming poll and reconnection grace and the client's retry backoffs
 * shrink alike. Shares
 * of the budget are unchanged. The budget is what the client's governor counted, which includes
 * attempts that never reached the stopped sandbox: an upper bound of what the service counts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient } from '../core/api/client.ts';
import { RateGovernor } from '../core/api/governor.ts';
import { CONFIRM_DELAY_MS, DEFAULT_POLL_INTERVAL_MS } from '../core/monitor/cadence.ts';
import { createSessionMonitor, type SessionMonitor } from '../core/monitor/monitor.ts';
import type { MonitorEvent } from '../shared/app/monitor.ts';
import { startSandbox, type Sandbox } from '../sandbox/index.ts';
import { agentToken, startAgent, waitFor } from './fleet.ts';
import { heapOverPolls } from './monitor-heap.ts';
import { offlineNotices } from './monitor-notice.ts';
import { median } from './timing.ts';

const SCALE = 20;
const LIMIT = { requests: 120, windowMs: 60_000 / SCALE };
const KEY = 'bench-monitor-key';
const KILLS = 5;
/** Budgets of the unscaled part: seconds to the offline notice, heap growth. */
const NOTICE_MEDIAN_S = 6;
const NOTICE_WORST_S = 10;
const HEAP_POLLS = 10_000;
const HEAP_MB = 2;
const PROFILE = 'bench';

type Run = {
  readonly detections: number[];
  readonly budget: number;
  readonly falseOffline: number;
};

async function runSize(size: number, dir: string): Promise<Run> {
  const dataFile = path.join(dir, `state-${size}.json`);
  const start = (port: number) =>
    startSandbox({
      apiKey: KEY,
      port,
      dataFile,
      rateLimit: { requests: LIMIT.requests, windowSeconds: LIMIT.windowMs / 1000 },
    });
  let sandbox: Sandbox = await start(0);
  const port = Number(new URL(sandbox.url).port);
  const token = await agentToken(sandbox.url, KEY);
  const agents = Array.from({ length: size }, (_, i) =>
    startAgent({
      url: sandbox.agentUrl,
      authtoken: token,
      metadata: `bench agent ${i}`,
      backoff: { initialMs: 250 / SCALE, maxMs: 5_000 / SCALE },
    }),
  );
  await Promise.all(agents.map((agent) => agent.online(60_000)));

  const governor = new RateGovernor({ limit: LIMIT });
  let peak = 0;
  governor.onChange((state) => (peak = Math.max(peak, state.used)));
  const events: MonitorEvent[] = [];
  const monitor: SessionMonitor = createSessionMonitor({
    clientFor: (_id, onEvent) =>
      createApiClient({
        baseUrl: sandbox.url,
        apiKey: KEY,
        governor,
        onEvent,
        retry: {
          maxRetries: 4,
          backoff: { baseMs: 250 / SCALE, maxMs: 8_000 / SCALE },
          rateLimitBackoff: { baseMs: 1_000 / SCALE, maxMs: 60_000 / SCALE },
        },
      }),
    intervalMs: DEFAULT_POLL_INTERVAL_MS / SCALE,
    confirmDelayMs: CONFIRM_DELAY_MS / SCALE,
    pollTimeoutMs: 120_000 / SCALE,
    reconnectGraceMs: 30_000 / SCALE,
  });
  monitor.onEvent((event) => events.push(event));
  const polls = () => monitor.snapshot().profiles[0]?.polls ?? 0;
  const nextPoll = () => {
    const after = polls();
    return waitFor(() => polls() > after, 'poll');
  };
  monitor.setProfiles([PROFILE]);
  await waitFor(() => polls() >= 1, 'first poll');

  try {
    const detections: number[] = [];
    for (let k = 0; k < Math.min(KILLS, size); k++) {
      await nextPoll();
      const victim = agents[(k * 7919) % agents.length];
      const id = victim?.session;
      const at = polls();
      await victim?.stop();
      await waitFor(
        () => events.some((e) => e.kind === 'offline' && e.sessions.some((s) => s.id === id)),
        'offline event',
      );
      detections.push(polls() - at);
    }

    const before = events.length;
    await sandbox.close();
    await waitFor(() => monitor.snapshot().profiles[0]?.health === 'unreachable', 'unreachable');
    sandbox = await start(port);
    const alive = agents.filter((agent) => agent.stopped === undefined);
    await waitFor(() => alive.every((agent) => agent.session !== undefined), 'reconnections');
    for (let i = 0; i < 4; i++) await nextPoll();
    const falseOffline = events.slice(before).filter((e) => e.kind === 'offline').length;
    return { detections, budget: peak / LIMIT.requests, falseOffline };
  } finally {
    await monitor.close();
    await Promise.all(agents.map((agent) => agent.stop()));
    await sandbox.close();
  }
}

const dir = await mkdtemp(path.join(tmpdir(), 'burrow-bench-monitor-'));
try {
  console.log(
    `time scaled ${SCALE}×: rate limit ${LIMIT.requests}/${LIMIT.windowMs / 1000} s, ` +
      `base poll ${DEFAULT_POLL_INTERVAL_MS / SCALE} ms; agents stopped one at a time right after a poll`,
  );
  for (const size of [10, 100, 1_000]) {
    const run = await runSize(size, dir);
    console.log(
      `sessions ${size}: detection median ${median(run.detections)} polls, ` +
        `worst ${Math.max(...run.detections)} polls; budget ${Math.round(run.budget * 100)}%; ` +
        `false offline ${run.falseOffline}`,
    );
  }
  console.log(
    `unscaled, default settings: agents leaving at ${KILLS} moments of the poll interval`,
  );
  for (const size of [10, 100]) {
    const { seconds: notices, budget } = await offlineNotices(size, KILLS);
    const [mid, worst] = [median(notices), Math.max(...notices)];
    console.log(
      `notice ${size}: offline notice median ${mid.toFixed(1)} s, worst ${worst.toFixed(1)} s ` +
        `(budget median ≤ ${NOTICE_MEDIAN_S} s: ${Math.round((mid / NOTICE_MEDIAN_S) * 100)}%, ` +
        `worst ≤ ${NOTICE_WORST_S} s: ${Math.round((worst / NOTICE_WORST_S) * 100)}%); ` +
        `budget ${Math.round(budget * 100)}%`,
    );
  }
  const heap = await heapOverPolls(HEAP_POLLS);
  const mb = heap.growthBytes / 1024 / 1024;
  console.log(
    `heap: ${mb < 0 ? '' : '+'}${mb.toFixed(2)} MB over ${heap.polls} polls with churn and a ` +
      `flapping API (budget ≤ ${HEAP_MB} MB: ${Math.round((Math.max(0, mb) / HEAP_MB) * 100)}%; ` +
      `${heap.failed} polls dropped, ${heap.offline} agents offline)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
