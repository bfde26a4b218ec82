/**
 * Writing key files the way they must be written: every file to a temporary name in its own
 * folder (created exclusively, never through a symlink), fsynced, then moved into place and the
 * folder fsynced. A set of files lands whole or not at all: if the second of three cannot be put
 * in place, the first is taken back, and a replaced file gets its old content back. Without
 * `overwrite`, a file is put in place with link(2), which fails rather than replace anything
 * that appeared in the meantime. While a set is being put in place, a marker file says so: a
 * process killed then leaves the marker, and leftovers.ts takes the set back on the next save.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileRole, SavedFile } from '../../../shared/app/ssh/results.ts';
import { syncDirectory } from '../../../shared/node/sync-directory.ts';
import { errnoOf, ioError, SshError } from '../errors.ts';

export type FileToWrite = {
  readonly path: string;
  readonly role: FileRole;
  readonly content: string;
};

/** Private keys are for their owner alone; public keys and certificates are public. */
const MODES: Readonly<Record<FileRole, number>> = {
  'private-key': 0o600,
  'public-key': 0o644,
  certificate: 0o644,
  'ssh-config': 0o644,
};

/**
 * A test seam: runs after every temporary file is written and synced, before each file is put in
 * place. What it throws fails the write as a crash there would.
 */
export type WriteHooks = { beforeCommit?(target: string, index: number): void | Promise<void> };

/** What is at `target` now: nothing, a regular file, or a refusal (symlink, folder, device…). */
async function occupant(target: string): Promise<'none' | 'file'> {
  let info;
  try {
    info = await lstat(target);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return 'none';
    throw ioError('check', target, error);
  }
  if (info.isSymbolicLink())
    throw new SshError(
      'symlink',
      `${target} is a symbolic link; Burrow does not write through links. Remove it or choose another name.`,
    );
  if (!info.isFile())
    throw new SshError('not-a-file', `${target} exists and is not a regular file`);
  return 'file';
}

/** Refuses with the `file-exists` answer that names every path of `present`, if there is one. */
export function refuseExisting(present: readonly string[]): void {
  if (present.length > 0)
    throw new SshError(
      'file-exists',
      `Already there: ${present.join(', ')}. Choose another name, or choose to replace.`,
      { paths: present },
    );
}

/** Which of `paths` exist (as anything), for asking before replacing them. */
export async function existingPaths(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const p of paths) {
    try {
      await lstat(p);
      found.push(p);
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw ioError('check', p, error);
    }
  }
  return found;
}

/** `.NAME.<set>.burrow-tmp`, `-old` or `-save`: hidden, beside NAME, named after its save. */
export const sideName = (target: string, set: string, kind: SideKind) =>
  path.join(path.dirname(target), `.${path.basename(target)}.${set}.burrow-${kind}`);
export type SideKind = 'tmp' | 'old' | 'save';

/** A new file with exactly `mode` and `content`, synced; never through a link or over a file. */
async function writeNew(file: string, mode: number, content: string): Promise<void> {
  // O_EXCL fails on anything already there, a symlink included; O_NOFOLLOW says so twice.
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const handle = await open(file, flags, mode);
  try {
    await handle.chmod(mode); // exact, whatever the umask
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(file).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/** A file put in place: how to take it back, and what to remove once the whole set is in. */
type Committed = { undo(): Promise<void>; leftover: string | undefined };

/** Puts one synced temporary file in place; a replaced file keeps the name `backup` meanwhile. */
async function commit(
  temp: string,
  target: string,
  backup: string,
  overwrite: boolean,
): Promise<Committed> {
  if (!overwrite || (await occupant(target)) === 'none') {
    try {
      await link(temp, target);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST')
        throw new SshError('file-exists', `${target} appeared while saving; nothing was replaced`, {
          paths: [target],
        });
      throw error;
    }
    return { undo: () => unlink(target), leftover: undefined };
  }
  // The old file keeps a second name until the whole set is in, so that it can be put back.
  await link(target, backup);
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(backup);
    throw error;
  }
  return { undo: () => rename(backup, target), leftover: backup };
}

/**
 * Writes `files` all or nothing (see the top of this file). Without `overwrite`, any file that
 * exists fails the whole write before anything is written, with SshError `file-exists` listing
 * every such path.
 */
export async function writeFilesAtomically(
  files: readonly FileToWrite[],
  options: { overwrite: boolean; hooks?: WriteHooks },
): Promise<SavedFile[]> {
  const present: string[] = [];
  for (const file of files) if ((await occupant(file.path)) === 'file') present.push(file.path);
  if (!options.overwrite) refuseExisting(present);

  const [first] = files;
  if (!first) return [];
  const folder = path.dirname(first.path);
  if (files.some((f) => path.dirname(f.path) !== folder))
    throw new Error('writeFilesAtomically writes a set into one folder');
  const set = randomBytes(6).toString('hex');
  const temps: string[] = [];
  const marker = sideName(first.path, set, 'save');
  let marked = false;
  const committed: Committed[] = [];
  try {
    for (const file of files) {
      const temp = sideName(file.path, set, 'tmp');
      await writeNew(temp, MODES[file.role], file.content);
      temps.push(temp);
    }
    // From here until the marker goes, a crash leaves a set to take back (leftovers.ts).
    await writeNew(marker, 0o600, JSON.stringify(files.map((f) => path.basename(f.path))));
    marked = true;
    await syncDirectory(folder);
    for (const [i, file] of files.entries()) {
      await options.hooks?.beforeCommit?.(file.path, i);
      const backup = sideName(file.path, set, 'old');
      committed.push(await commit(temps[i] ?? '', file.path, backup, options.overwrite));
    }
    await syncDirectory(folder);
    await unlink(marker); // the whole set is in
  } catch (error) {
    let undone = true;
    for (const c of committed.reverse()) await c.undo().catch(() => (undone = false));
    // A set not wholly taken back keeps its marker and side files for the next save to finish.
    if (undone) await removeAll([...temps, ...(marked ? [marker] : [])]);
    if (error instanceof SshError) throw error;
    throw ioError('save', files.map((f) => f.path).join(', '), error);
  }
  // A linked temporary file is a second name of the new file; a backup, of the old one.
  await removeAll([...temps, ...committed.flatMap((c) => c.leftover ?? [])]);
  await syncDirectory(folder);
  return files.map((f) => ({ path: f.path, role: f.role, mode: MODES[f.role] }));
}

async function removeAll(paths: readonly string[]): Promise<void> {
  for (const p of paths) await unlink(p).catch(() => undefined);
}
