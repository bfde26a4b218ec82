import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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

/** What reading a small file of ours found: its text, nothing there, or why it was not read. */
export type SmallFile =
  | { readonly text: string }
  | { readonly absent: true }
  | { readonly refused: string };

/** Why a small file was not opened, in words. */
function openRefusal(error: unknown): SmallFile {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { absent: true };
  // O_NOFOLLOW on a link: ELOOP on Linux and macOS, EMLINK on FreeBSD.
  if (code === 'ELOOP' || code === 'EMLINK') return { refused: 'it is a symbolic link' };
  if (code === 'EACCES' || code === 'EPERM') return { refused: 'permission denied' };
  return { refused: error instanceof Error ? error.message : String(error) };
}

/**
 * A small file of ours read without trusting its place: a link is not followed, a FIFO or a
 * device is not waited on, and nothing over `maxBytes` is read; when it is not read, why.
 */
export async function readSmallFileOrWhy(path: string, maxBytes: number): Promise<SmallFile> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let file;
  try {
    file = await open(path, flags);
  } catch (error) {
    return openRefusal(error);
  }
  try {
    const info = await file.stat();
    if (info.isDirectory()) return { refused: 'it is a folder' };
    if (!info.isFile())
      return { refused: 'it is not a regular file (a FIFO, a socket or a device)' };
    if (info.size > maxBytes)
      return { refused: `it is over ${maxBytes.toLocaleString('en')} bytes` };
    // Sized to the file as it was when opened, one byte over: one that grew since is not read.
    const buffer = Buffer.alloc(info.size + 1);
    const { bytesRead } = await file.read(buffer, 0, info.size + 1, 0);
    if (bytesRead > info.size) return { refused: 'it grew while it was read' };
    return { text: buffer.subarray(0, bytesRead).toString('utf8') };
  } finally {
    await file.close();
  }
}

/**
 * `readSmallFileOrWhy`'s text; undefined when there is no such regular file (absent, a link, a
 * FIFO, a folder, too big).
 */
export async function readSmallFile(path: string, maxBytes: number): Promise<string | undefined> {
  const read = await readSmallFileOrWhy(path, maxBytes);
  return 'text' in read ? read.text : undefined;
}

/**
 * Where a damaged `NAME.json` is set aside, beside itself: `NAME.damaged-2026-11-26T19-52-00.json`,
 * or with `-2`, `-3`… if that one is taken.
 */
export function asideName(file: string, now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '-');
  const base = join(dirname(file), `${basename(file, '.json')}.damaged-${stamp}`);
  let name = `${base}.json`;
  for (let n = 2; existsSync(name); n++) name = `${base}-${n}.json`;
  return name;
}

/** What a line or file of ours holds as JSON, or undefined where it is no JSON (cut short, damaged). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
