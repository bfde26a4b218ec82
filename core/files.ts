import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
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
