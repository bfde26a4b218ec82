import { randomBytes } from 'node:crypto';
import { chmod, rm } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { dispatchIpc, type IpcImplementation } from '../ipc/dispatch.ts';
import type { EventHub } from '../ipc/events.ts';
import { readSmallFile } from '../../shared/node/small-file.ts';
import { writeWhole } from '../files.ts';
import {
  hubAddress,
  hubRecordPath,
  lineReader,
  MAX_HUB_LINE_BYTES,
  MAX_HUB_RECORD_BYTES,
  proof,
  proves,
} from './place.ts';

export type HubOptions = {
  readonly dataDir: string;
  /** The contract as `burrow` reaches it: its actions recorded as the command line's. */
  readonly implementation: IpcImplementation;
  /** Every event of core, sent on to each command that is connected. */
  readonly events: EventHub;
  /** How long a connection has to prove itself. */
  readonly handshakeMs?: number;
};

export type Hub = {
  readonly address: string;
  /** Commands connected now. */
  connections(): number;
  close(): Promise<void>;
};

/** Whether something answers on the address (an app already serving this data folder). */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(address);
    const done = (yes: boolean) => {
      socket.destroy();
      resolve(yes);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const isChallenge = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/**
 * The running app as the hub of `burrow` commands (docs/architecture.md, "The app and the command
 * line"): each command that proves it knows this start's secret speaks the window's own contract
 * over a socket only the user can reach, so that its calls share the app's governors, monitor,
 * activity writer, apply lock and Local sandbox. Undefined when the data folder's address is
 * taken by a live app, or too long for a socket: commands then run alone, as before.
 */
export async function startHub(options: HubOptions): Promise<Hub | undefined> {
  const address = hubAddress(options.dataDir);
  if (address === undefined) return undefined;
  const onUnix = !address.startsWith('\\\\');
  if (onUnix) {
    if (await answers(address)) return undefined;
    await rm(address, { force: true });
  }
  const secret = randomBytes(32).toString('hex');
  const sockets = new Set<Socket>();
  const server = createServer((socket) => serve(socket, secret, options, sockets));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (onUnix) await chmod(address, 0o600);
  const record = JSON.stringify({ pid: process.pid, address, secret });
  const recordPath = hubRecordPath(options.dataDir);
  await writeWhole(recordPath, record, 0o600);
  return {
    address,
    connections: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      // Unless another start has written its own meanwhile.
      if ((await readSmallFile(recordPath, MAX_HUB_RECORD_BYTES)) === record)
        await rm(recordPath, { force: true });
    },
  };
}

function serve(socket: Socket, secret: string, options: HubOptions, sockets: Set<Socket>): void {
  sockets.add(socket);
  const challenge = randomBytes(32).toString('hex');
  let stage: 'hello' | 'proof' | 'open' = 'hello';
  let stopEvents: (() => void) | undefined;
  const send = (value: unknown) => {
    // A command that stops reading is let go rather than held in memory without end.
    if (socket.writableLength > MAX_HUB_LINE_BYTES) socket.destroy();
    else socket.write(`${JSON.stringify(value)}\n`);
  };
  const deadline = setTimeout(() => socket.destroy(), options.handshakeMs ?? 2_000);
  socket.on('close', () => {
    clearTimeout(deadline);
    stopEvents?.();
    sockets.delete(socket);
  });
  socket.on('error', () => socket.destroy());
  socket.on(
    'data',
    lineReader(
      (message) => {
        if (stage === 'hello') {
          if (!isChallenge(message['hello'])) return socket.destroy();
          stage = 'proof';
          return send({ proof: proof(secret, 'app', message['hello']), challenge });
        }
        if (stage === 'proof') {
          if (!proves(secret, 'command', challenge, message['proof'])) return socket.destroy();
          stage = 'open';
          clearTimeout(deadline);
          stopEvents = options.events.onEvent((event) => send({ event }));
          return send({ welcome: true });
        }
        const id = message['id'];
        if (typeof id !== 'number') return socket.destroy();
        void dispatchIpc(options.implementation, message['call'], message['args']).then((reply) =>
          send({ id, reply }),
        );
      },
      () => socket.destroy(),
    ),
  );
}
