/**
 * 100 agents connected at once: the time until the API lists all 100 sessions, and the sandbox's
 * memory per session, next to 100 idle WebSocket connections to a bare `ws` server (the cost of
 * the transport alone). Each server runs in a child process (bench/agents-server.ts) that
 * reports its own memory after a full GC; the agents and the plain clients run in this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import type { Agent } from '../sandbox/agent/agent.ts';
import { agentUrlOf } from '../sandbox/tunnel/protocol.ts';
import type { Memory } from './agents-server.ts';
import { agentToken, startAgent } from './fleet.ts';

const AGENTS = 100;
const KEY = 'bench-agents-key';

type Server = { readonly child: ChildProcess; readonly url: string; memory(): Promise<Memory> };

function startServer(kind: 'sandbox' | 'bare'): Promise<Server> {
  const child = fork('bench/agents-server.ts', [kind], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (message) => resolve(message as T));
      child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    });
  return next<{ url: string }>().then(({ url }) => ({
    child,
    url,
    memory: () => {
      const reply = next<Memory>();
      child.send('measure');
      return reply;
    },
  }));
}

type Measured = {
  readonly ms: number;
  /** Per connection, after a full GC: the number to compare. */
  readonly heapKiB: number;
  /** Per connection; at this scale mostly within the noise of pages the heap already had. */
  readonly rssKiB: number;
  readonly rssMiB: number;
};

async function measure(server: Server, connect: () => Promise<void>): Promise<Measured> {
  const before = await server.memory();
  const started = performance.now();
  await connect();
  const ms = performance.now() - started;
  await sleep(200);
  const after = await server.memory();
  return {
    ms,
    heapKiB: (after.heap - before.heap) / 1024 / AGENTS,
    rssKiB: (after.rss - before.rss) / 1024 / AGENTS,
    rssMiB: after.rss / 1024 / 1024,
  };
}

async function sandboxScenario(): Promise<Measured> {
  const server = await startServer('sandbox');
  const headers = { authorization: `Bearer ${KEY}`, 'service-version': '2' };
  const agents: Agent[] = [];
  try {
    const token = await agentToken(server.url, KEY);
    const listed = async () => {
      const reply = await fetch(`${server.url}/tunnel_sessions?limit=100`, { headers });
      return ((await reply.json()) as { tunnel_sessions: unknown[] }).tunnel_sessions.length;
    };
    const agent = (i: number) =>
      startAgent({ url: agentUrlOf(server.url), authtoken: token, metadata: `bench agent ${i}` });
    // One agent first, so that what runs once per process (lazy modules, JIT) is not counted.
    const warmup = agent(-1);
    await warmup.online();
    await warmup.stop();
    await listed();
    return await measure(server, async () => {
      for (let i = 0; i < AGENTS; i++) agents.push(agent(i));
      while ((await listed()) < AGENTS) await sleep(5);
    });
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()));
    server.child.disconnect();
  }
}

async function bareScenario(): Promise<Measured> {
  const server = await startServer('bare');
  const clients: WebSocket[] = [];
  const open = () => {
    const ws = new WebSocket(server.url);
    clients.push(ws);
    return new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  };
  try {
    await open();
    clients.pop()?.close();
    return await measure(server, async () => {
      await Promise.all(Array.from({ length: AGENTS }, open));
    });
  } finally {
    for (const ws of clients) ws.terminate();
    server.child.disconnect();
  }
}

const per = (m: Measured) =>
  `${m.heapKiB.toFixed(1)} KiB heap+external, ${m.rssKiB.toFixed(1)} KiB RSS ` +
  `(server RSS ${m.rssMiB.toFixed(0)} MiB)`;

export async function benchAgents(): Promise<void> {
  const bare = await bareScenario();
  const sandbox = await sandboxScenario();
  console.log(
    `baseline ${AGENTS} idle ws connections to a bare ws server: open in ${bare.ms.toFixed(0)} ms; ` +
      `per connection ${per(bare)}`,
  );
  console.log(
    `sandbox ${AGENTS} agents connected at once: all listed in ${sandbox.ms.toFixed(0)} ms ` +
      `(${(sandbox.ms / bare.ms).toFixed(2)}× of bare ws open); per session ${per(sandbox)} ` +
      `(heap ${(sandbox.heapKiB / bare.heapKiB).toFixed(2)}× of bare ws)`,
  );
}
