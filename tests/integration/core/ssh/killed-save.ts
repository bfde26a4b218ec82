/**
 * A save killed part-way, for real: a child process (tests/support/children/killed-save.ts) runs
 * writeFilesAtomically of core/ssh/files/atomic-write.ts and SIGKILLs itself just before it puts
 * file number `at` in place, leaving on disk exactly what such a crash leaves.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FileToWrite } from '../../../../core/ssh/files/atomic-write.ts';
import { bin } from '../../../support/bins.ts';

const run = promisify(execFile);

export async function killSaveAt(
  files: readonly FileToWrite[],
  options: { overwrite: boolean; at: number },
): Promise<void> {
  await expect(
    run(process.execPath, [bin('killed-save'), JSON.stringify({ files, ...options })]),
  ).rejects.toMatchObject({ signal: 'SIGKILL' });
}

/** The hidden side files a save leaves in `names` (a folder's entries). */
export const sideFiles = (names: readonly string[]) =>
  names.filter((n) => /\.burrow-(tmp|old|save)$/.test(n));
