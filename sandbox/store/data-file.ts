import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The state on disk. Every write goes to a temporary file in the same directory, is fsynced, and
 * is renamed over the data file (then the directory is fsynced, so the rename itself is durable):
 * a crash at any moment leaves the old file or the new one, never a torn one.
 *
 * Writes are group commits: `commit()` resolves once a snapshot taken after the call is on disk.
 * Callers that arrive while a write runs share the next one, so a burst costs two writes, not one
 * per request.
 */
export class DataFile {
  private writing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private serial = 0;

  constructor(
    readonly path: string,
    private readonly snapshot: () => string,
  ) {}

  /** The parsed file, or undefined when there is none yet. Unreadable or unparsable is an error. */
  static async read(path: string): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Error(`cannot read data file ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`data file ${path} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Temporary files a killed process left behind; never the data file itself. */
  static async removeLeftovers(path: string): Promise<void> {
    const dir = dirname(path);
    const prefix = `${basename(path)}.`;
    const names = await readdir(dir).catch(() => []);
    await Promise.all(
      names
        .filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'))
        .map((name) => rm(join(dir, name), { force: true })),
    );
  }

  commit(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.writing) return this.startWrite();
    this.queued = this.writing
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.startWrite();
      });
    return this.queued;
  }

  /** Waits for every pending write. */
  async flush(): Promise<void> {
    while (this.writing || this.queued) await (this.queued ?? this.writing)?.catch(() => undefined);
  }

  private startWrite(): Promise<void> {
    const write = this.write().finally(() => {
      if (this.writing === write) this.writing = undefined;
    });
    this.writing = write;
    return write;
  }

  private async write(): Promise<void> {
    const data = this.snapshot();
    const temp = `${this.path}.${process.pid}.${this.serial++}.tmp`;
    try {
      const file = await open(temp, 'w', 0o600);
      try {
        await file.writeFile(data, 'utf8');
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, this.path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncDirectory(dirname(this.path));
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; there the rename is as durable as it gets.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
