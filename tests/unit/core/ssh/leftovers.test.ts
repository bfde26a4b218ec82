/**
 * A save killed part-way (a real child process SIGKILLed between putting files in place) leaves
 * a half set and hidden copies of the private key; the next save of the name takes the set back
 * and removes every copy. And saves of overlapping files take turns.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically, type FileToWrite } from '../../../../core/ssh/files/atomic-write.ts';
import { cleanUpInterruptedSaves } from '../../../../core/ssh/files/leftovers.ts';
import { createFileLocks } from '../../../../core/ssh/files/locks.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';
import { killSaveAt, sideFiles } from './killed-save.ts';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('burrow-leftovers-');
});
afterEach(() => removeDir(dir));

const set = (content: string, name = 'id'): FileToWrite[] => [
  { path: path.join(dir, name), role: 'private-key', content: `private ${content}` },
  { path: path.join(dir, `${name}.pub`), role: 'public-key', content: `public ${content}` },
  { path: path.join(dir, `${name}-cert.pub`), role: 'certificate', content: `cert ${content}` },
];
const paths = () => set('').map((f) => f.path);
const contents = () => Promise.all(paths().map((p) => readFile(p, 'utf8').catch(() => undefined)));

describe('a save killed part-way', () => {
  it('of a new set: the next save of the name removes the half set and every hidden copy', async () => {
    await killSaveAt(set('v1'), { overwrite: false, at: 1 });
    expect(await contents()).toEqual(['private v1', undefined, undefined]);
    expect(sideFiles(await readdir(dir))).toHaveLength(4); // three copies and the marker

    await createFileLocks()(paths(), () => writeFilesAtomically(set('v2'), { overwrite: false }));
    expect(await contents()).toEqual(['private v2', 'public v2', 'cert v2']);
    expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
  });

  it.each([0, 1, 2])(
    'replacing a set, killed before file %i: the old set comes back whole',
    async (at) => {
      await writeFilesAtomically(set('v1'), { overwrite: false });
      await killSaveAt(set('v2'), { overwrite: true, at });
      await cleanUpInterruptedSaves(paths());
      expect(await contents()).toEqual(['private v1', 'public v1', 'cert v1']);
      expect((await stat(path.join(dir, 'id'))).mode & 0o777).toBe(0o600);
      expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
    },
  );

  it('after the set was in: its files stay, the copies left beside them go', async () => {
    await writeFilesAtomically(set('v2'), { overwrite: false });
    // A crash while removing the side files of a finished save: no marker any more.
    await writeFile(path.join(dir, '.id.0123456789ab.burrow-old'), 'private v1');
    await writeFile(path.join(dir, '.id.pub.0123456789ab.burrow-tmp'), 'public v2');
    await cleanUpInterruptedSaves(paths());
    expect(await contents()).toEqual(['private v2', 'public v2', 'cert v2']);
    expect((await readdir(dir)).sort()).toEqual(['id', 'id-cert.pub', 'id.pub']);
  });

  it('of another name is not touched by a save of this one', async () => {
    await killSaveAt(set('v1', 'other'), { overwrite: false, at: 2 });
    const before = (await readdir(dir)).sort();
    await cleanUpInterruptedSaves(paths());
    expect((await readdir(dir)).sort()).toEqual(before);
  });
});

describe('turns', () => {
  it('saves of overlapping files wait for each other; others do not', async () => {
    const lock = createFileLocks();
    const order: string[] = [];
    let releaseFirst = () => {};
    let firstStarted = () => {};
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const first = lock([path.join(dir, 'a'), path.join(dir, 'b')], async () => {
      order.push('first starts');
      const released = new Promise<void>((resolve) => (releaseFirst = resolve));
      firstStarted();
      await released;
      order.push('first ends');
    });
    // The others ask once the first holds its files: taking a turn reads the disk first.
    await started;
    const overlapping = lock([path.join(dir, 'b')], async () => {
      order.push('overlapping');
    });
    await lock([path.join(dir, 'c')], async () => {
      order.push('unrelated');
    });
    releaseFirst();
    await Promise.all([first, overlapping]);
    expect(order).toEqual(['first starts', 'unrelated', 'first ends', 'overlapping']);
  });
});
