import { open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDirectory } from '../../shared/node/sync-directory.ts';
import { crashPoint } from './crash-points.ts';

/**
 * The append-only journal beside the data file: one JSON line per committed transaction. A line
 * counts once its newline is on disk; a crash during a write leaves at most a torn last line,
 * which reading drops (and cuts off the file, so that the next line starts clean).
 *
 * Each append opens the file, so that a file made writable again (space freed, permissions
 * fixed) is used at the next write; a write that failed half-way is cut off before the next one.
 */
export class Journal {
  private constructor(
    readonly path: string,
    /** The bytes of the complete lines: where the next line goes. */
    private bytes: number,
  ) {}

  get size(): number {
    return this.bytes;
  }

  /** The journal's complete lines (created empty when absent), its torn last line cut off. */
  static async open(path: string): Promise<{ journal: Journal; lines: string[] }> {
    let data = Buffer.alloc(0);
    try {
      data = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`cannot read journal ${path}: ${(error as Error).message}`, {
          cause: error,
        });
    }
    const complete = data.subarray(0, data.lastIndexOf(0x0a) + 1);
    const journal = new Journal(path, complete.length);
    await journal.withFile(async (handle, size) => {
      if (size !== journal.bytes) await handle.truncate(journal.bytes);
      await handle.sync();
    });
    await syncDirectory(dirname(path));
    return { journal, lines: complete.toString('utf8').split('\n').slice(0, -1) };
  }

  /** Appends `text` (whole lines) and resolves once it is durable. */
  async append(text: string): Promise<void> {
    await crashPoint('journal.beforeWrite');
    await this.withFile(async (handle, size) => {
      if (size < this.bytes)
        throw new Error(`journal ${this.path} lost data: ${size} bytes, ${this.bytes} expected`);
      if (size > this.bytes) await handle.truncate(this.bytes);
      await crashPoint('journal.torn', () =>
        handle.appendFile(text.slice(0, Math.ceil(text.length / 2))).then(() => handle.sync()),
      );
      await handle.appendFile(text, 'utf8');
      await crashPoint('journal.afterWrite');
      await handle.datasync();
      await crashPoint('journal.afterSync');
    });
    this.bytes += Buffer.byteLength(text);
  }

  /** Empties the journal: a snapshot holds its lines now. */
  async clear(): Promise<void> {
    await this.withFile(async (handle) => {
      await handle.truncate(0);
      await handle.sync();
    });
    this.bytes = 0;
  }

  private async withFile(
    use: (handle: Awaited<ReturnType<typeof open>>, size: number) => Promise<void>,
  ): Promise<void> {
    const handle = await open(this.path, 'a', 0o600);
    try {
      await use(handle, (await handle.stat()).size);
    } finally {
      await handle.close();
    }
  }
}
