/**
 * The server side of the agents bench, in a process of its own so that its memory is its own:
 * `node --expose-gc --import tsx bench/agents-server.ts sandbox|bare`, with an IPC channel. It
 * reports `{ url }` when ready, and answers every message with its memory after a full GC.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export type Memory = { readonly rss: number; readonly heap: number };

const send = (message: object) => process.send?.(message);
const gc = (globalThis as { gc?: () => void }).gc;

if (process.argv[2] === 'bare') {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('listening', () => send({ url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}` }));
} else {
  // Imported here so that the bare server does not carry the sandbox's modules.
  const { startSandbox } = await import('../sandbox/index.ts');
  const sandbox = await startSandbox({ apiKey: 'bench-agents-key', rateLimit: 'off' });
  send({ url: sandbox.url });
}

process.on('message', () => {
  gc?.();
  const usage = process.memoryUsage();
  send({ rss: usage.rss, heap: usage.heapUsed + usage.external } satisfies Memory);
});
process.on('disconnect', () => process.exit(0));
