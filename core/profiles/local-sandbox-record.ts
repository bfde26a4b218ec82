import { randomBytes, timingSafeEqual } from 'node:crypto';
import { constants, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { z } from 'zod';
import { isLoopbackHost } from '../../shared/api/values/loopback-address.ts';
import { OWNER_PROOF_PATH, OWNER_TOKEN, ownerProof } from '../../shared/api/catalog/owner-proof.ts';
import { textUpTo } from '../body-up-to.ts';
import { writeWhole } from '../files.ts';
import { isRunning } from '../process-alive.ts';

/**
 * Where a running Local sandbox listens, written by the process that runs it (the app, or a
 * `burrow` command) into the sandbox's folder, so that the other finds it instead of opening the
 * same data file. No key: both read the Local profile's key from the keychain. The secret of this
 * start, with which the sandbox proves to be the one recorded before anyone sends it the key
 * (shared/api/catalog/owner-proof.ts): the file is the user's alone (0600, in a 0700 folder).
 */
export const SandboxRecord = z.object({
  /** Loopback only: a record pointing elsewhere would have the key sent there. */
  url: z.url().refine((url) => url.startsWith('http://') && isLoopbackHost(new URL(url).hostname), {
    message: 'not a loopback http address',
  }),
  pid: z.number().int().positive(),
  secret: z.string().regex(OWNER_TOKEN),
  rateLimit: z
    .object({ requests: z.number().int().positive(), windowMs: z.number().int().positive() })
    .optional(),
});
export type SandboxRecord = z.infer<typeof SandboxRecord>;

export const RECORD_FILE = 'running.json';

/** Far more than a record takes; a bigger file is no record, and is never read whole. */
const MAX_RECORD_BYTES = 4096;

/** How long a recorded sandbox has to answer its challenge. */
const PROOF_TIMEOUT_MS = 2_000;

/** Far more than `{ "proof": <64 hex digits> }`: whatever listens there is read no further. */
const MAX_PROOF_BYTES = 1024;

const recordPath = (dir: string) => path.join(dir, RECORD_FILE);

/** A new secret for a sandbox about to start, or a challenge. */
export const ownerToken = (): string => randomBytes(32).toString('hex');

/**
 * The record file's text, or undefined when there is none that is a record: not a regular file
 * (a FIFO would block a plain read for ever; a symlink would read some other file), or too big.
 * Such a file is written over by the next record (a rename replaces it, never follows it).
 */
async function recordText(dir: string): Promise<string | undefined> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  const file = await open(recordPath(dir), flags).catch(() => undefined);
  if (!file) return undefined;
  try {
    const stat = await file.stat();
    if (!stat.isFile() || stat.size > MAX_RECORD_BYTES) return undefined;
    const buffer = Buffer.alloc(MAX_RECORD_BYTES + 1);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return bytesRead > MAX_RECORD_BYTES ? undefined : buffer.toString('utf8', 0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

function parseRecord(text: string): SandboxRecord | undefined {
  try {
    const record = SandboxRecord.safeParse(JSON.parse(text));
    return record.success ? record.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether what listens at the record's address knows its secret: it answers a fresh challenge
 * with the proof. Nothing else is sent there, the key least of all.
 */
async function proves(record: SandboxRecord): Promise<boolean> {
  const challenge = ownerToken();
  try {
    // Not followed if redirected (undici's request follows none): the answer must come from there.
    const response = await request(`${record.url}${OWNER_PROOF_PATH}?challenge=${challenge}`, {
      signal: AbortSignal.timeout(PROOF_TIMEOUT_MS),
    });
    if (response.statusCode !== 200) {
      response.body.destroy();
      return false;
    }
    const tooLarge = () => new Error('not a proof: too large');
    const text = await textUpTo(response, MAX_PROOF_BYTES, tooLarge);
    const { proof } = JSON.parse(text) as { proof?: unknown };
    const expected = Buffer.from(await ownerProof(record.secret, challenge));
    return (
      typeof proof === 'string' &&
      proof.length === expected.length &&
      timingSafeEqual(Buffer.from(proof), expected)
    );
  } catch {
    return false;
  }
}

/**
 * The record of a sandbox that runs now and proves to be the one recorded, or undefined: none,
 * no record (see recordText), or stale (its process gone, nothing listening where it says, or
 * something else listening there), which the next sandbox to start writes over.
 */
export async function liveRecord(dir: string): Promise<SandboxRecord | undefined> {
  const text = await recordText(dir);
  const record = text === undefined ? undefined : parseRecord(text);
  if (!record || !isRunning(record.pid)) return undefined;
  return (await proves(record)) ? record : undefined;
}

/**
 * A joined sandbox as its joiner sees it now: `here` (still recorded, its process running, and
 * proving itself), `gone` (its record removed or replaced, or its process ended: the owner quit
 * or died), or `silent` (recorded, its process running, but no proof came back: a slow answer on
 * a loaded machine, or, if it lasts, the pid of a dead owner taken by another process).
 */
export async function recordedNow(
  dir: string,
  record: SandboxRecord,
): Promise<'here' | 'gone' | 'silent'> {
  if (!(await stillRecorded(dir, record)) || !isRunning(record.pid)) return 'gone';
  return (await proves(record)) ? 'here' : 'silent';
}

/** Written whole (never half a record), readable by the user only. */
export function writeRecord(dir: string, record: SandboxRecord): Promise<void> {
  return writeWhole(recordPath(dir), JSON.stringify(record), 0o600);
}

/** Whether the record in `dir` is still `record` (the same start: the same secret). */
export async function stillRecorded(dir: string, record: SandboxRecord): Promise<boolean> {
  const text = await recordText(dir);
  return text !== undefined && parseRecord(text)?.secret === record.secret;
}

/**
 * Removes the record if it is still this one's. Called while this process still holds the data
 * file, so no later sandbox can have written its own in between the look and the removal.
 */
export async function removeRecord(dir: string, record: SandboxRecord): Promise<void> {
  if (await stillRecorded(dir, record)) await rm(recordPath(dir), { force: true });
}
