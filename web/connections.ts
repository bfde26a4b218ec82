import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps a server's open connections under `max`, where file descriptors may be as few as 1,024.
 * Past it the oldest connection with nothing in flight goes first (an idle keep-alive, a client
 * that never sent a whole request): those cost nothing to drop, while a call being answered or
 * an open event stream is a tab at work. When every connection is at work, the newest goes.
 */
export function capConnections(server: Server, max: number): void {
  /** In the order they came: the first idle one found is the oldest. */
  const open = new Set<Socket>();
  const working = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      working.delete(socket);
    });
    if (open.size <= max) return;
    for (const candidate of open) {
      if (working.has(candidate)) continue;
      open.delete(candidate);
      candidate.destroy();
      return;
    }
  });
  server.on('request', (request, response) => {
    const { socket } = request;
    working.add(socket);
    response.once('close', () => working.delete(socket));
  });
}
