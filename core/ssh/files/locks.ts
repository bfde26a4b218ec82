/**
 * One save at a time per file: generating a key, signing an existing one and renewing take the
 * locks of every file they write (and read back) for the whole operation, so that a renewal and
 * a new key of the same name, or two saves of one name, follow each other instead of mixing
 * their files. The locks are this process's; before the work, leftovers of a save that was
 * killed are finished (leftovers.ts).
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { cleanUpInterruptedSaves } from './leftovers.ts';

export type FileLocks = <T>(files: readonly string[], work: () => Promise<T>) => Promise<T>;

export function createFileLocks(): FileLocks {
  /** The last holder's turn of each file: a new holder waits for it. */
  const tails = new Map<string, Promise<void>>();

  async function acquire(key: string): Promise<() => void> {
    const previous = tails.get(key) ?? Promise.resolve();
    let release = () => {};
    const turn = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => turn);
    tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    };
  }

  /** The file's name in its folder's real place: a folder reached through a symlink is one. */
  const keyOf = async (file: string) =>
    path.join(
      await realpath(path.dirname(file)).catch(() => path.dirname(file)),
      path.basename(file),
    );

  return async (files, work) => {
    // Always in the same order, so that two holders of overlapping sets cannot wait on each other.
    const keys = [...new Set(await Promise.all(files.map(keyOf)))].sort();
    const releases: (() => void)[] = [];
    try {
      for (const key of keys) releases.push(await acquire(key));
      await cleanUpInterruptedSaves(files);
      return await work();
    } finally {
      for (const release of releases.reverse()) release();
    }
  };
}
