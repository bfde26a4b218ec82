import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { lockPath, sweepLeftovers } from '../../../../../core/snapshot/apply/lock.ts';

/*
 * An apply killed between two of its writes (the lock placed but its temporary file not yet
 * removed; the journal's plan removed but not its steps) leaves files that no later apply of a
 * finished snapshot would look at: the next plan sweeps them, unless another apply is alive.
 */

const DEAD_PID = 4_194_000; // above Linux's pid_max default: no such process
let folder = '';
afterEach(() => rm(folder, { recursive: true, force: true }));

async function leftovers(otherLockPid: number): Promise<string> {
  folder = await mkdtemp(join(tmpdir(), 'burrow-sweep-'));
  const other = lockPath(folder, 'profile:prf_other');
  const holder = { pid: otherLockPid, started: null, since: new Date().toISOString(), holder: 'x' };
  await writeFile(other, JSON.stringify(holder));
  await writeFile(`${other}.${DEAD_PID}.0a1b2c3d4e5f.tmp`, '{}');
  await writeFile(join(folder, 'apply-0123456789abcdef.steps'), '');
  await writeFile(join(folder, 'apply-fedcba9876543210.json'), '{}');
  await writeFile(join(folder, 'apply-fedcba9876543210.steps'), '');
  return folder;
}

it('removes a dead holder’s lock, a killed lock’s temporary file and steps without their plan', async () => {
  const dir = await leftovers(DEAD_PID);
  await sweepLeftovers(dir, 'profile:prf_mine', 'Staging', 'a test');
  expect((await readdir(dir)).sort()).toEqual([
    'apply-fedcba9876543210.json',
    'apply-fedcba9876543210.steps',
  ]);
});

it('touches nothing while another apply is alive', async () => {
  const dir = await leftovers(process.pid);
  const before = (await readdir(dir)).sort();
  await sweepLeftovers(dir, 'profile:prf_mine', 'Staging', 'a test');
  expect((await readdir(dir)).sort()).toEqual(before);
});
