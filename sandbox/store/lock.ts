import { open, readFile, rm } from 'node:fs/promises';

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function holderOf(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * One data file, one sandbox: `FILE.lock` holds the pid of the sandbox that has FILE. A lock whose
 * process is gone (a crash, kill -9) is taken over; a live one is an error naming it. Two sandboxes
 * taking over the same stale lock at the same instant could both succeed; nothing else can.
 */
export class DataFileLock {
  private constructor(readonly path: string) {}

  static async acquire(dataFile: string): Promise<DataFileLock> {
    const path = `${dataFile}.lock`;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const handle = await open(path, 'wx', 0o600);
        try {
          await handle.writeFile(`${process.pid}\n`);
          await handle.sync();
        } finally {
          await handle.close();
        }
        return new DataFileLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new Error(`cannot lock data file ${dataFile}: ${(error as Error).message}`, {
            cause: error,
          });
      }
      const holder = await holderOf(path);
      if (holder === undefined) continue;
      const pid = Number(holder.trim());
      if (Number.isInteger(pid) && pid > 0 && isRunning(pid))
        throw new Error(
          `data file ${dataFile} is in use by another sandbox (pid ${pid}); its lock is ${path}`,
        );
      // Only the stale lock we read, not one a racing sandbox has just written.
      if ((await holderOf(path)) === holder) await rm(path, { force: true });
    }
    throw new Error(`cannot lock data file ${dataFile}: ${path} keeps changing`);
  }

  async release(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
