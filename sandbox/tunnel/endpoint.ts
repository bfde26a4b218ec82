import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Store } from '../store/store.ts';
import { AgentConnection } from './connection.ts';
import { AGENT_PATH, CLOSE } from './protocol.ts';
import { AGENT_RELEASES } from './releases.ts';

export type AgentEndpointOptions = {
  readonly store: Store;
  /** How long a command waits for the agent's answer before it is 504 agentTimeout. */
  readonly commandTimeoutMs: number;
  /** Ping period; a peer that missed the last ping's pong is dropped (a dead TCP peer). */
  readonly heartbeatMs?: number;
  readonly helloTimeoutMs?: number;
  readonly releases?: readonly string[];
};

/** Far above any hello (metadata is at most 4 KiB): a larger frame is not an agent's. */
const MAX_MESSAGE_BYTES = 64 * 1024;

export type AgentEndpoint = {
  /** Closes every agent connection (agents see "going away" and reconnect with backoff). */
  close(): Promise<void>;
};

/**
 * The tunnel server of the sandbox: a WebSocket endpoint at AGENT_PATH on the API's own HTTP
 * server, where each connection is one tunnel session (transport service/v2).
 */
export function attachAgentEndpoint(server: Server, options: AgentEndpointOptions): AgentEndpoint {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const deps = {
    store: options.store,
    releases: options.releases ?? AGENT_RELEASES,
    commandTimeoutMs: options.commandTimeoutMs,
    helloTimeoutMs: options.helloTimeoutMs ?? 10_000,
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const alive = new WeakMap<WebSocket, boolean>();

  wss.on('connection', (ws: WebSocket, request: IncomingMessage) => {
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    new AgentConnection(ws, request, deps);
  });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== AGENT_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  return {
    close: async () => {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      const closed = [...wss.clients].map(
        (ws) =>
          new Promise<void>((resolve) => {
            ws.once('close', () => resolve());
            ws.close(CLOSE.serverGoingAway, 'the sandbox is shutting down');
            // An agent that does not finish the closing handshake is cut off.
            setTimeout(() => ws.terminate(), 1000).unref();
          }),
      );
      await Promise.all(closed);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
