import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

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
    throw error;
  }
}
