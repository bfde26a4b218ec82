import { randomBytes } from 'node:crypto';
import { link, open, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { processStart } from './process-start.ts';

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Says the lock is a Burrow sandbox's, not some other program's file of the same name. */
const MARKER = 'burrow-sandbox';

/** `PID START burrow-sandbox`: START is processStart's, or `-` where it cannot be read. */
async function lockText(pid: number): Promise<string> {
  return `${pid} ${(await processStart(pid)) ?? '-'} ${MARKER}\n`;
}

/**
 * The pid of the live process that wrote `text`, or undefined: a lock of a process gone, of
 * garbage, or naming a pid that another process has since been given (its start differs).
 * A lock of only a pid (Burrow before it wrote its start) is held while that pid runs.
 */
async function holderPid(text: string): Promise<number | undefined> {
  const [, pidText, start] = new RegExp(`^(\\d+)(?: (\\d+|-) ${MARKER})?$`).exec(text.trim()) ?? [];
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0 || !isRunning(pid)) return undefined;
  if (start === undefined || start === '-') return pid;
  const now = await processStart(pid);
  return now === undefined || now === start ? pid : undefined;
}

/**
 * Creates the lock at `path` whole, or fails with EEXIST: written to a file of its own first,
 * then linked into place, so that no one ever reads an empty lock (taken for stale, and removed
 * from under its writer). The temporary name is outside the data file's (`FILE.*.tmp`), which
 * the holder sweeps.
 */
async function createLock(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

async function holderOf(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * One data file, one sandbox: `FILE.lock` names the process that has FILE (its pid, and when it
 * started, so that a pid given to another process since is not taken for it). A lock whose
 * process is gone (a crash, kill -9) is taken over; a live one is an error naming it. Two
 * sandboxes taking over the same stale lock at the same instant could both succeed; nothing
 * else can.
 */
export class DataFileLock {
  private constructor(readonly path: string) {}

  static async acquire(dataFile: string): Promise<DataFileLock> {
    const path = `${dataFile}.lock`;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await createLock(path, await lockText(process.pid));
        return new DataFileLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new Error(`cannot lock data file ${dataFile}: ${(error as Error).message}`, {
            cause: error,
          });
      }
      const holder = await holderOf(path);
      if (holder === undefined) continue;
      const pid = await holderPid(holder);
      if (pid !== undefined)
        throw new Error(
          `data file ${dataFile} is in use by another sandbox (pid ${pid}); its lock is ${path}`,
        );
      // Only the stale lock we read, not one a racing sandbox has just written.
      if ((await holderOf(path)) === holder) await rm(path, { force: true });
    }
    // Sandboxes starting and stopping in turn on it: in use all the same, and worth a retry.
    throw new Error(
      `data file ${dataFile} is in use by another sandbox (its lock ${path} keeps changing hands)`,
    );
  }

  async release(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
