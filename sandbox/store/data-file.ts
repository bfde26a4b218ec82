import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory } from '../../shared/node/sync-directory.ts';
import { crashPoint } from './crash-points.ts';

/** The parsed file, or undefined when there is none yet. Unreadable or unparsable is an error. */
export async function readDataFile(
  path: string,
): Promise<{ json: unknown; bytes: number } | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read data file ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return { json: JSON.parse(text), bytes: Buffer.byteLength(text) };
  } catch (error) {
    throw new Error(`data file ${path} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Temporary files a killed process left behind; never the data file itself. */
export async function removeLeftovers(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  const names = await readdir(dir).catch(() => []);
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'))
      .map((name) => rm(join(dir, name), { force: true })),
  );
}

let serial = 0;

/**
 * Replaces the file with `text` so that a crash at any moment leaves the old file or the new one,
 * never a torn one: a temporary file in the same directory, fsynced, renamed over the file, and
 * the directory fsynced (so that the rename itself is durable).
 */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${serial++}.tmp`;
  try {
    const file = await open(temp, 'w', 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await crashPoint('snapshot.afterTempWrite');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await crashPoint('snapshot.afterRename');
  await syncDirectory(dirname(path));
}
