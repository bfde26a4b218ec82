/**
 * Forked by bench/monitor-heap.ts with --expose-gc: the monitor and the agents service of one
 * profile polling the sandbox at BURROW_BENCH_URL back to back, and the heap after a full GC
 * once the agents' days and the gone agents have filled up (the warm-up), then again after
 * BURROW_BENCH_POLLS more polls. Only Burrow's side is in this process: the sandbox keeps its
 * last 10,000 operations, which is no growth of ours. Wall time is virtual (5 s a poll), so that
 * the agents' days fill as they would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentsService } from '../core/agents/service.ts';
import { createApiClient } from '../core/api/client.ts';
import { createSessionMonitor } from '../core/monitor/monitor.ts';

export type HeapResult = {
  readonly polls: number;
  readonly growthBytes: number;
  readonly failed: number;
  readonly offline: number;
};

const PROFILE = 'bench';
const url = process.env.BURROW_BENCH_URL ?? '';
const apiKey = process.env.BURROW_BENCH_KEY ?? '';
const polls = Number(process.env.BURROW_BENCH_POLLS ?? 10_000);
const warmup = Number(process.env.BURROW_BENCH_WARMUP ?? 1_500);

function heap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench: run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const dir = await mkdtemp(path.join(tmpdir(), 'burrow-bench-heap-'));
let wall = Date.now();
const now = () => wall;
const monitor = createSessionMonitor({
  clientFor: (_id, onEvent) =>
    createApiClient({
      baseUrl: url,
      apiKey,
      onEvent,
      rateLimit: { requests: 1_000_000, windowMs: 1_000 },
    }),
  now,
  // The monitor's own timer stays out of the way: every poll is this loop's.
  intervalMs: 3_600_000,
  // Its 30 s at a poll every 5 s: six polls of a few milliseconds.
  reconnectGraceMs: 20,
});
let offline = 0;
monitor.onEvent((event) => {
  if (event.kind === 'offline') offline += event.sessions.length;
});
const agents = await AgentsService.open({
  dataDir: dir,
  watched: {
    snapshot: () => monitor.snapshot(),
    onEvent: (listener) => monitor.onEvent(listener),
    onSnapshot: (listener) => monitor.onSnapshot(listener),
  },
  sessions: { onAction: () => () => undefined },
  profiles: { state: () => ({ profiles: [{ id: PROFILE }] }), onChange: () => () => undefined },
  now,
});
monitor.setProfiles([PROFILE]);
const succeeded = () => monitor.snapshot().profiles[0]?.polls ?? 0;
const poll = async () => {
  wall += 5_000;
  await monitor.pollNow();
};

try {
  for (let i = 0; i < warmup; i++) await poll();
  const before = heap();
  const from = succeeded();
  for (let i = 0; i < polls; i++) await poll();
  const after = heap();
  const result: HeapResult = {
    polls,
    growthBytes: after - before,
    failed: polls - (succeeded() - from),
    offline,
  };
  process.send?.(result);
} finally {
  await agents.close();
  await monitor.close();
  await rm(dir, { recursive: true, force: true });
}
