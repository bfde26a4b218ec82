import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { jsonOrUndefined } from '../files.ts';

/*
 * Where the running app waits for `burrow` commands, and how the two prove to each other that
 * they are the same person's Burrow: a secret made at each start, kept in a file only its user
 * can read, never sent; each side answers the other's challenge with an HMAC under it.
 */

/** The record the app writes beside its socket: which process serves, and the secret. */
export const HubRecord = z.strictObject({
  pid: z.int().positive(),
  /** Where to connect: a Unix socket in the data folder, or a named pipe on Windows. */
  address: z.string().min(1).max(300),
  secret: z.string().regex(/^[0-9a-f]{64}$/),
});
export type HubRecord = z.infer<typeof HubRecord>;

const HUB_RECORD_FILE = 'hub.json';
/** Far more than a record takes: a bigger file is not ours. */
export const MAX_HUB_RECORD_BYTES = 1_024;
/** A line of the conversation (a call, its answer, an event): beyond it the connection ends. */
export const MAX_HUB_LINE_BYTES = 16 << 20;

export const hubRecordPath = (dataDir: string) => path.join(dataDir, HUB_RECORD_FILE);

/**
 * The socket's path: in the data folder (0700, the user's) where the name fits a socket's limit
 * of about 100 bytes; a named pipe on Windows, named after the folder.
 */
export function hubAddress(dataDir: string, platform = process.platform): string | undefined {
  const folder = path.resolve(dataDir);
  if (platform === 'win32')
    return `\\\\.\\pipe\\burrow-${createHash('sha256').update(folder).digest('hex').slice(0, 24)}`;
  const socket = path.join(folder, 'hub.sock');
  return Buffer.byteLength(socket) <= 100 ? socket : undefined;
}

/** One side's answer to the other's challenge; the two sides' answers differ by their role. */
export function proof(secret: string, role: 'app' | 'command', challenge: string): string {
  return createHmac('sha256', Buffer.from(secret, 'hex'))
    .update(`${role}:${challenge}`)
    .digest('hex');
}

export function proves(
  secret: string,
  role: 'app' | 'command',
  challenge: string,
  answer: unknown,
) {
  if (typeof answer !== 'string' || !/^[0-9a-f]{64}$/.test(answer)) return false;
  return timingSafeEqual(
    Buffer.from(proof(secret, role, challenge), 'hex'),
    Buffer.from(answer, 'hex'),
  );
}

/** A line of the channel as its reader hands it: a JSON object, or `{}` for anything else. */
export type HubMessage = Record<string, unknown>;

/**
 * Splits a stream into JSON lines, each handed on as a message (a line that is no JSON object
 * reads as `{}`, which neither side accepts), refusing a line past the cap (`onTooLong` ends it).
 */
export function lineReader(onLine: (message: HubMessage) => void, onTooLong: () => void) {
  let pending = '';
  return (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      const value = jsonOrUndefined(line);
      onLine((typeof value === 'object' && value !== null ? value : {}) as HubMessage);
    }
    if (pending.length > MAX_HUB_LINE_BYTES) onTooLong();
  };
}
