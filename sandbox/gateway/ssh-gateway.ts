import { createServer, type AddressInfo, type Socket } from 'node:net';
import ssh2 from 'ssh2';
import { GatewayConnection, peerOf, type GatewayDeps } from './connection.ts';
import type { HostKey } from './host-key.ts';

export type SshGatewayOptions = GatewayDeps & {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly hostKey: HostKey;
};

export interface SshGateway {
  readonly port: number;
  /** `ssh-ed25519 <base64>`: what a known_hosts line for the gateway holds. */
  readonly hostPublicKey: string;
  /** Stops listening, tells every client and hangs up; resolves once every socket is gone. */
  close(): Promise<void>;
}

/**
 * A client that vanishes without closing (a dropped network, a suspended laptop) is noticed by
 * keepalives: one every 5 s, and three unanswered end the connection, so within about 20 s.
 */
const KEEPALIVE_MS = 5_000;
const KEEPALIVE_COUNT_MAX = 3;
const IDLE_MS = 30_000;
/** How long close() lets clients read the goodbye before their sockets are destroyed. */
const CLOSE_GRACE_MS = 500;

/**
 * The SSH gateway: `ssh -R … v2@host tunnel` with a key registered as an SSH credential starts a
 * tunnel session (transport `ssh`) that lasts as long as the connection.
 */
export async function startSshGateway(options: SshGatewayOptions): Promise<SshGateway> {
  const connections = new Set<GatewayConnection>();
  const sockets = new Set<Socket>();
  const ssh = new ssh2.Server(
    {
      hostKeys: [options.hostKey.privateKey],
      keepaliveInterval: KEEPALIVE_MS,
      keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    },
    (client, info) => {
      const connection = new GatewayConnection(client, peerOf(info), options);
      connections.add(connection);
      client.once('close', () => connections.delete(connection));
    },
  );
  // Our own listener, handing sockets to ssh2: close() can then destroy the sockets of clients
  // that do not hang up, which ssh2 does not expose.
  const listener = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setKeepAlive(true, KEEPALIVE_MS);
    // A socket that never even sends its SSH version is cut; once authenticated, the keepalives
    // are traffic every few seconds, so a live session is never idle this long.
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    ssh.injectSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen({ host: options.host, port: options.port }, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  listener.on('error', (error) => options.log(`ssh gateway: ${error.message}`));

  let closing: Promise<void> | undefined;
  return {
    port: (listener.address() as AddressInfo).port,
    hostPublicKey: options.hostKey.publicKey,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => listener.close(() => resolve()));
        for (const connection of connections) connection.shutdown();
        await allClosed(sockets, CLOSE_GRACE_MS);
        for (const socket of sockets) socket.destroy();
        await stopped;
      })()),
  };
}

async function allClosed(sockets: ReadonlySet<Socket>, waitMs: number): Promise<void> {
  const closed = [...sockets].map((s) => new Promise((resolve) => s.once('close', resolve)));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, waitMs)));
  await Promise.race([Promise.all(closed), timeout]);
  clearTimeout(timer);
}
