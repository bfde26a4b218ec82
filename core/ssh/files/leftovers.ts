/**
 * What a save killed part-way leaves beside its files (atomic-write.ts names them): hidden temporary
 * copies, second names of replaced files, and, if it was putting the set in place, its marker.
 * Before the next save of one of those files, a set with a marker is taken back (each replaced
 * file gets its old content, each file it created goes) and every side file of it is removed, so
 * that no copy of a private key stays behind and the half set does not block the new save.
 */
import { lstat, readdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { errnoOf, ioError } from '../errors.ts';
import { sideName, type SideKind } from './atomic-write.ts';

const SIDE_FILE = /^\.(.+)\.([0-9a-f]{12})\.burrow-(tmp|old|save)$/;

type SideFile = { readonly name: string; readonly of: string; readonly set: string };

async function identity(file: string): Promise<string | undefined> {
  try {
    const info = await lstat(file);
    return `${info.dev}:${info.ino}`;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The file names a marker lists; none when it is not one of ours (then nothing is taken back). */
async function namesIn(marker: string): Promise<string[]> {
  let names: unknown;
  try {
    names = JSON.parse(await readFile(marker, 'utf8'));
  } catch {
    return [];
  }
  return Array.isArray(names)
    ? names.filter(
        (n): n is string => typeof n === 'string' && /^[^/\\]+$/.test(n) && n !== '.' && n !== '..',
      )
    : [];
}

/** Puts back what the set `set` had replaced in `folder` and removes what it had created. */
async function takeBack(folder: string, set: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const target = path.join(folder, name);
    const side = (kind: SideKind) => sideName(target, set, kind);
    if ((await identity(side('old'))) !== undefined) await rename(side('old'), target);
    else {
      const created = await identity(side('tmp'));
      // Put in place by link(2): the target is the temporary file under a second name.
      if (created !== undefined && created === (await identity(target))) await unlink(target);
    }
  }
}

/** Finishes every interrupted save that touched one of `targets` (files of one folder). */
export async function cleanUpInterruptedSaves(targets: readonly string[]): Promise<void> {
  const [first] = targets;
  if (first === undefined) return;
  const folder = path.dirname(first);
  const wanted = new Set(targets.map((t) => path.basename(t)));
  try {
    const names = await readdir(folder).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return [];
      throw error;
    });
    const sides = names.flatMap((name): SideFile[] => {
      const match = SIDE_FILE.exec(name);
      return match ? [{ name, of: match[1] ?? '', set: match[2] ?? '' }] : [];
    });
    const sets = new Set(sides.filter((s) => wanted.has(s.of)).map((s) => s.set));
    for (const set of sets) {
      const ofSet = sides.filter((s) => s.set === set);
      const marker = ofSet.find((s) => s.name.endsWith('.burrow-save'));
      if (marker) await takeBack(folder, set, await namesIn(path.join(folder, marker.name)));
      // The marker goes last: a crash in here leaves the set to take back again next time.
      const last = (s: SideFile) => (s === marker ? 1 : 0);
      for (const side of ofSet.sort((a, b) => last(a) - last(b)))
        await unlink(path.join(folder, side.name)).catch((error: unknown) => {
          if (errnoOf(error) !== 'ENOENT') throw error;
        });
    }
  } catch (error) {
    throw ioError('clean up an interrupted save in', folder, error);
  }
}
