import { open, readFile, rm } from 'node:fs/promises';
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
        const handle = await open(path, 'wx', 0o600);
        try {
          await handle.writeFile(await lockText(process.pid));
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
      const pid = await holderPid(holder);
      if (pid !== undefined)
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
