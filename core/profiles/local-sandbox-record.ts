import { readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isLoopbackHost } from '../../shared/api/loopback-address.ts';
import { writeWhole } from '../files.ts';
import { isRunning } from '../process-alive.ts';

/**
 * Where a running Local sandbox listens, written by the process that runs it (the app, or a
 * `burrow` command) into the sandbox's folder, so that the other finds it instead of opening the
 * same data file. No key: both read the Local profile's key from the keychain, and the file is
 * the user's alone (0600, in a 0700 folder) all the same.
 */
export const SandboxRecord = z.object({
  /** Loopback only: a record pointing elsewhere would have the key sent there. */
  url: z.url().refine((url) => url.startsWith('http://') && isLoopbackHost(new URL(url).hostname), {
    message: 'not a loopback http address',
  }),
  pid: z.number().int().positive(),
  rateLimit: z
    .object({ requests: z.number().int().positive(), windowMs: z.number().int().positive() })
    .optional(),
});
export type SandboxRecord = z.infer<typeof SandboxRecord>;

export const RECORD_FILE = 'running.json';

const recordPath = (dir: string) => path.join(dir, RECORD_FILE);

/** Whether something accepts connections on the URL's port, within a second. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The record of a sandbox that runs now, or undefined: none, unreadable, or stale (its process
 * gone, or nothing listening where it says), which the next sandbox to start writes over.
 */
export async function liveRecord(dir: string): Promise<SandboxRecord | undefined> {
  const text = await readFile(recordPath(dir), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let record;
  try {
    record = SandboxRecord.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!record.success || !isRunning(record.data.pid)) return undefined;
  return (await listening(record.data.url)) ? record.data : undefined;
}

/** Written whole (never half a record), readable by the user only. */
export function writeRecord(dir: string, record: SandboxRecord): Promise<void> {
  return writeWhole(recordPath(dir), JSON.stringify(record), 0o600);
}

/** Removes the record if it is still this one's (a later sandbox may have written its own). */
export async function removeRecord(dir: string, record: SandboxRecord): Promise<void> {
  const text = await readFile(recordPath(dir), 'utf8').catch(() => undefined);
  if (text === JSON.stringify(record)) await rm(recordPath(dir), { force: true });
}
