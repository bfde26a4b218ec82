import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isRunning } from '../process-alive.ts';

/**
 * The commands that use a Local sandbox another process runs: a file `users/PID-RANDOM` in the
 * sandbox's folder each, there while it uses it. A command has no other sandbox to turn to in the
 * middle of its calls, so the process that runs the sandbox lets them finish before it closes
 * it (LocalSandbox); the app, which watches and starts its own, needs no file.
 */
const USERS = 'users';

/** Adds this process as a user; the answer removes it again. */
export async function addUser(dir: string): Promise<() => Promise<void>> {
  const folder = path.join(dir, USERS);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, `${process.pid}-${randomBytes(6).toString('hex')}`);
  await writeFile(file, '', { mode: 0o600, flag: 'wx' });
  return () => rm(file, { force: true });
}

/** How many users there are; the files of users gone (a command killed) are swept. */
export async function countUsers(dir: string): Promise<number> {
  const folder = path.join(dir, USERS);
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let live = 0;
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (Number.isSafeInteger(pid) && pid > 0 && isRunning(pid)) live++;
    else await rm(path.join(folder, name), { force: true });
  }
  return live;
}
