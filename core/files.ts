import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Why `path` could not be written, in words: never the temporary file's name. */
function writeFailure(error: unknown, path: string, temporary: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    ENOENT: `the folder ${dirname(path)} does not exist`,
    ENOTDIR: `${dirname(path)} is not a folder`,
    EISDIR: 'it is a folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOSPC: 'the disk is full',
    EROFS: 'the disk is read-only',
  };
  const reason = (code === undefined ? undefined : reasons[code]) ?? String(error);
  const failure = new Error(`Cannot write ${path}: ${reason.replaceAll(temporary, path)}`);
  return Object.assign(failure, { code });
}

/**
 * Written to a fresh file `PATH.<random>.tmp` with `mode`, synced, then renamed into place: a
 * reader never sees half a file. A failed write takes its temporary file back; one a kill left
 * keeps that name, for its owner to sweep.
 */
export async function writeWhole(path: string, text: string, mode: number): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const file = await open(temporary, 'wx', mode);
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw writeFailure(error, path, temporary);
  }
}

/**
 * A small file of ours read without trusting its place: a link is not followed, a FIFO or a
 * device is not waited on, and nothing over `maxBytes` is read. Undefined when there is no such
 * regular file (absent, a link, a FIFO, a folder, too big).
 */
export async function readSmallFile(path: string, maxBytes: number): Promise<string | undefined> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  const file = await open(path, flags).catch(() => undefined);
  if (!file) return undefined;
  try {
    const info = await file.stat();
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const buffer = Buffer.alloc(maxBytes + 1);
    const { bytesRead } = await file.read(buffer, 0, maxBytes + 1, 0);
    return bytesRead > maxBytes ? undefined : buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}
