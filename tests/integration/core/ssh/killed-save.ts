/**
 * A save killed part-way, for real: a child process runs writeFilesAtomically of
 * core/ssh/files/atomic-write.ts and SIGKILLs itself just before it puts file number `at` in
 * place, leaving on disk exactly what such a crash leaves.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { FileToWrite } from '../../../../core/ssh/files/atomic-write.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';

const run = promisify(execFile);
const FILES_MODULE = path.resolve('core/ssh/files/atomic-write.ts');

export async function killSaveAt(
  files: readonly FileToWrite[],
  options: { overwrite: boolean; at: number },
): Promise<void> {
  const dir = await tempDir('burrow-killed-save-');
  try {
    const script = path.join(dir, 'crash.mts');
    await writeFile(
      script,
      `import { writeFilesAtomically } from ${JSON.stringify(FILES_MODULE)};
await writeFilesAtomically(${JSON.stringify(files)}, {
  overwrite: ${options.overwrite},
  hooks: { beforeCommit: (_, i) => { if (i === ${options.at}) process.kill(process.pid, 'SIGKILL'); } },
});`,
    );
    await expect(run(process.execPath, ['--import', 'tsx', script])).rejects.toMatchObject({
      signal: 'SIGKILL',
    });
  } finally {
    await removeDir(dir);
  }
}

/** The hidden side files a save leaves in `names` (a folder's entries). */
export const sideFiles = (names: readonly string[]) =>
  names.filter((n) => /\.burrow-(tmp|old|save)$/.test(n));
