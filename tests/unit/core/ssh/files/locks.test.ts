import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createFileLocks } from '../../../../../core/ssh/files/locks.ts';
import { removeDir, tempDir } from '../../../../support/openssh.ts';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('burrow-locks-');
});
afterEach(() => removeDir(dir));

it('saves of overlapping files wait for each other; others do not', async () => {
  const lockFiles = createFileLocks();
  const order: string[] = [];
  let releaseFirst = () => {};
  let firstStarted = () => {};
  const started = new Promise<void>((resolve) => (firstStarted = resolve));
  const first = lockFiles([path.join(dir, 'a'), path.join(dir, 'b')], async () => {
    order.push('first starts');
    const released = new Promise<void>((resolve) => (releaseFirst = resolve));
    firstStarted();
    await released;
    order.push('first ends');
  });
  // The others ask once the first holds its files: taking a turn reads the disk first.
  await started;
  const overlapping = lockFiles([path.join(dir, 'b')], async () => {
    order.push('overlapping');
  });
  await lockFiles([path.join(dir, 'c')], async () => {
    order.push('unrelated');
  });
  releaseFirst();
  await Promise.all([first, overlapping]);
  expect(order).toEqual(['first starts', 'unrelated', 'first ends', 'overlapping']);
});
