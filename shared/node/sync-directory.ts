import { open } from 'node:fs/promises';

/**
 * Makes the renames and links done in `dir` durable: until the directory itself is synced, a
 * crash can lose a file's new name even though its content was synced.
 */
export async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; there the rename is as durable as it gets.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
