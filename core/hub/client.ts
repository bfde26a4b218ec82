import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { IpcReply } from '../../shared/app/ipc/bridge.ts';
import type { IpcEvent } from '../../shared/app/ipc/contract.ts';
import { readSmallFile } from '../../shared/node/small-file.ts';
import { isRunning } from '../process-alive.ts';
import {
  HubRecord,
  hubRecordPath,
  lineReader,
  MAX_HUB_RECORD_BYTES,
  proof,
  proves,
} from './place.ts';

/** A command's line to the running app. */
export type HubConnection = {
  call(name: string, args: readonly unknown[]): Promise<IpcReply>;
  onEvent(listener: (event: IpcEvent) => void): () => void;
  /** Settles once the line is closed (by either side): no event comes after it. */
  readonly closed: Promise<void>;
  close(): void;
};

/** No app to run in, and why, for `--verbose`. */
export type NoHub = { readonly why: string };

const parsed = (text: string | undefined) => {
  if (text === undefined) return undefined;
  try {
    return HubRecord.safeParse(JSON.parse(text)).data;
  } catch {
    return undefined;
  }
};

/**
 * The running app's hub for this data folder, proven (it answers this command's challenge with
 * the secret of its record), within `timeoutMs`; otherwise why not. Never waits longer: a dead,
 * foreign or stuck channel means the command runs alone.
 */
export async function connectHub(
  dataDir: string,
  timeoutMs = 1_000,
): Promise<HubConnection | NoHub> {
  const record = parsed(await readSmallFile(hubRecordPath(dataDir), MAX_HUB_RECORD_BYTES));
  if (!record) return { why: 'no Burrow app serves this data folder' };
  if (!isRunning(record.pid))
    return { why: `the Burrow app that served it (pid ${record.pid}) has quit` };
  const socket = connect(record.address);
  const challenge = randomBytes(32).toString('hex');
  const listeners = new Set<(event: IpcEvent) => void>();
  const waiting = new Map<number, (reply: IpcReply) => void>();
  let next = 1;
  const gone: IpcReply = {
    ok: false,
    error: { code: 'HUB_GONE', message: 'The Burrow app quit while the command ran' },
  };
  const send = (value: unknown) => socket.write(`${JSON.stringify(value)}\n`);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return new Promise((resolve) => {
    let open = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ why });
    };
    const timer = setTimeout(() => fail('the Burrow app did not answer in time'), timeoutMs);
    socket.on('error', (error) => {
      if (!open) fail(`the Burrow app's channel failed: ${error.message}`);
    });
    socket.on('close', () => {
      if (!open) return fail('the Burrow app closed the channel');
      for (const answer of waiting.values()) answer(gone);
      waiting.clear();
    });
    socket.once('connect', () => send({ hello: challenge }));
    socket.on(
      'data',
      lineReader(
        (message) => {
          if (!open && 'proof' in message) {
            if (!proves(record.secret, 'app', challenge, message['proof']))
              return fail('what listens there is not this Burrow app');
            const theirs = message['challenge'];
            return send({ proof: proof(record.secret, 'command', String(theirs)) });
          }
          if (!open && message['welcome'] === true) {
            open = true;
            clearTimeout(timer);
            return resolve({
              call: (name, args) =>
                new Promise((answer) => {
                  if (socket.destroyed) return answer(gone);
                  const id = next++;
                  waiting.set(id, answer);
                  send({ id, call: name, args });
                }),
              onEvent: (listener) => {
                listeners.add(listener);
                return () => listeners.delete(listener);
              },
              closed,
              close: () => socket.end(),
            });
          }
          if (!open) return fail('the Burrow app answered out of turn');
          if (typeof message['id'] === 'number') {
            waiting.get(message['id'])?.(message['reply'] as IpcReply);
            waiting.delete(message['id']);
          } else if (message['event'])
            for (const listener of listeners) listener(message['event'] as IpcEvent);
        },
        () => socket.destroy(),
      ),
    );
  });
}
