/**
 * A save killed part-way, for real (a child process SIGKILLed between putting files in place):
 * the old files stay whole and what the crash left is hidden; the next save of the name takes a
 * half set back and removes every copy of the private key.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically } from '../../../../core/ssh/files/atomic-write.ts';
import { cleanUpInterruptedSaves } from '../../../../core/ssh/files/leftovers.ts';
import { createFileLocks } from '../../../../core/ssh/files/locks.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';
import { contentsOf, keyFileSet } from '../../../unit/core/ssh/fixtures.ts';
import { killSaveAt, sideFiles } from './killed-save.ts';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('burrow-killed-saves-');
});
afterEach(() => removeDir(dir));

/** Each test starts Node with tsx: half a second on a quiet machine, many on a loaded one. */
const SPAWNS = { timeout: 60_000 };

const set = (content: string, name = 'id') => keyFileSet(dir, content, name);
const paths = () => set('').map((f) => f.path);
const contents = () => contentsOf(set(''));

it('a process killed between write and rename leaves the old file whole', SPAWNS, async () => {
  await writeFilesAtomically(set('v1'), { overwrite: false });
  await killSaveAt([{ path: path.join(dir, 'id'), role: 'private-key', content: 'private v2' }], {
    overwrite: true,
    at: 0,
  });
  expect(await contents()).toEqual(['private v1', 'public v1', 'cert v1']);
  // What the crash left is hidden: the temporary file and the marker of the unfinished set,
  // never a partial key under the real name.
  const leftovers = sideFiles(await readdir(dir));
  expect(leftovers.map((f) => f.replace(/[0-9a-f]{12}/, 'SET')).sort()).toEqual([
    '.id.SET.burrow-save',
    '.id.SET.burrow-tmp',
  ]);
});

describe('the next save after a save killed part-way', SPAWNS, () => {
  it('of a new set: removes the half set and every hidden copy', async () => {
    await killSaveAt(set('v1'), { overwrite: false, at: 1 });
    expect(await contents()).toEqual(['private v1', undefined, undefined]);
    expect(sideFiles(await readdir(dir))).toHaveLength(4); // three copies and the marker

    await createFileLocks()(paths(), () => writeFilesAtomically(set('v2'), { overwrite: false }));
    expect(await contents()).toEqual(['private v2', 'public v2', 'cert v2']);
    expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
  });

  it.each([0, 1, 2])(
    'replacing a set, killed before file %i: brings the old set back whole',
    async (at) => {
      await writeFilesAtomically(set('v1'), { overwrite: false });
      await killSaveAt(set('v2'), { overwrite: true, at });
      await cleanUpInterruptedSaves(paths());
      expect(await contents()).toEqual(['private v1', 'public v1', 'cert v1']);
      expect((await stat(path.join(dir, 'id'))).mode & 0o777).toBe(0o600);
      expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
    },
  );

  it('of another name: leaves that name alone', async () => {
    await killSaveAt(set('v1', 'other'), { overwrite: false, at: 2 });
    const before = (await readdir(dir)).sort();
    await cleanUpInterruptedSaves(paths());
    expect((await readdir(dir)).sort()).toEqual(before);
  });
});
