/**
 * The heap of Burrow's side over many polls with churn and a flapping API: the sandbox here,
 * its agents coming and going (one of a pool of 12 replaced every 5 ms, 10 connected at a time),
 * one poll in three dropped; the monitor and the agents service in a child process
 * (bench/monitor-heap-child.ts, started with --expose-gc) that measures its own heap.
 */
import { fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from '../sandbox/agent/agent.ts';
import { startSandbox } from '../sandbox/index.ts';
import { agentToken, startAgent } from './fleet.ts';
import type { HeapResult } from './monitor-heap-child.ts';

const KEY = 'bench-heap-key';
const POOL = 12;
const CONNECTED = 10;

export async function heapOverPolls(polls: number): Promise<HeapResult> {
  const sandbox = await startSandbox({ apiKey: KEY, rateLimit: 'off' });
  const token = await agentToken(sandbox.url, KEY);
  const start = (name: number) =>
    startAgent({ url: sandbox.agentUrl, authtoken: token, metadata: `pool agent ${name}` });
  const connected = new Map<number, Agent>();
  for (let i = 0; i < CONNECTED; i++) connected.set(i, start(i));
  await Promise.all([...connected.values()].map((a) => a.online()));
  sandbox.faults.add({ kind: 'drop', pathPrefix: '/tunnel_sessions', probability: 1 / 3 });

  let churning = true;
  const churn = (async () => {
    for (let next = CONNECTED; churning; next++) {
      const [name, leaving] = [...connected][next % CONNECTED] ?? [];
      if (leaving && name !== undefined) {
        connected.delete(name);
        await leaving.stop();
      }
      while (connected.has(next % POOL)) next += 1;
      const joining = start(next % POOL);
      connected.set(next % POOL, joining);
      await joining.online().catch(() => undefined);
      await sleep(5);
    }
  })();

  try {
    const child = fork('bench/monitor-heap-child.ts', [], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      env: {
        ...process.env,
        BURROW_BENCH_URL: sandbox.url,
        BURROW_BENCH_KEY: KEY,
        BURROW_BENCH_POLLS: String(polls),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return await new Promise<HeapResult>((resolve, reject) => {
      child.once('message', (message) => resolve(message as HeapResult));
      child.once('exit', (code) => reject(new Error(`bench: the heap child exited (${code})`)));
    });
  } finally {
    churning = false;
    await churn;
    await Promise.all([...connected.values()].map((a) => a.stop()));
    await sandbox.close();
  }
}
