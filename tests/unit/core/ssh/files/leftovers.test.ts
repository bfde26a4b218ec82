/**
 * Side files a save left after its set was in place go, and its files stay. The sets a killed
 * save left half in place, taken back by the next save, are the integration tests'
 * killed-saves.test.ts: they kill a real child process.
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { writeFilesAtomically } from '../../../../../core/ssh/files/atomic-write.ts';
import { cleanUpInterruptedSaves } from '../../../../../core/ssh/files/leftovers.ts';
import { removeDir, tempDir } from '../../../../support/openssh.ts';
import { contentsOf, keyFileSet } from '../fixtures.ts';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('burrow-leftovers-');
});
afterEach(() => removeDir(dir));

it('after the set was in: its files stay, the copies left beside them go', async () => {
  const set = keyFileSet(dir, 'v2');
  await writeFilesAtomically(set, { overwrite: false });
  // A crash while removing the side files of a finished save: no marker any more.
  await writeFile(path.join(dir, '.id.0123456789ab.burrow-old'), 'private v1');
  await writeFile(path.join(dir, '.id.pub.0123456789ab.burrow-tmp'), 'public v2');
  await cleanUpInterruptedSaves(set.map((f) => f.path));
  expect(await contentsOf(set)).toEqual(['private v2', 'public v2', 'cert v2']);
  expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
});
