import { z } from 'zod';
import { readDataFile, removeLeftovers, writeAtomically } from './data-file.ts';
import { crashPoint } from './crash-points.ts';
import { Journal } from './journal.ts';
import { DataFileLock } from './lock.ts';
import { STORED_KINDS } from './records.ts';
import type { CommitSink } from './transactions.ts';

const FORMAT = 'burrow-sandbox-state';

const Records = z.array(z.looseObject({ id: z.string() }));
const Accounts = z.record(z.string(), z.partialRecord(z.enum(STORED_KINDS), Records));
/** Version 1 (before the journal) is read as a snapshot of sequence 0. */
const Snapshot = z.union([
  z.strictObject({ format: z.literal(FORMAT), version: z.literal(1), accounts: Accounts }),
  z.strictObject({
    format: z.literal(FORMAT),
    version: z.literal(2),
    seq: z.number().int().nonnegative(),
    accounts: Accounts,
  }),
]);
export type SnapshotAccounts = z.output<typeof Accounts>;

const Target = { account: z.string(), kind: z.enum(STORED_KINDS) };
const JournalChange = z.discriminatedUnion('op', [
  z.strictObject({ ...Target, op: z.literal('insert'), record: z.looseObject({ id: z.string() }) }),
  z.strictObject({
    ...Target,
    op: z.literal('replace'),
    record: z.looseObject({ id: z.string() }),
  }),
  z.strictObject({ ...Target, op: z.literal('delete'), id: z.string() }),
]);
export type JournalChange = z.output<typeof JournalChange>;
const JournalLine = z.strictObject({
  seq: z.number().int().positive(),
  changes: z.array(JournalChange).min(1),
});

/** The state as the data file holds it; `apply` throws (naming the change) when one cannot be. */
export type Loader = {
  snapshot(accounts: SnapshotAccounts): void;
  apply(change: JournalChange): void;
  /** The whole state, for a snapshot. */
  serialize(seq: number): string;
};

/** Below this the journal is never compacted: a small state is cheap to replay. */
const COMPACT_MIN_BYTES = 256 * 1024;

export function snapshotText(seq: number, accounts: SnapshotAccounts): string {
  return JSON.stringify({ format: FORMAT, version: 2, seq, accounts });
}

/**
 * A data file and its journal, held by one sandbox: FILE is a snapshot (written atomically, with
 * the sequence number of the last transaction it holds), FILE.journal the transactions after it.
 * Once the journal outgrows the snapshot, the next idle moment writes a new snapshot and empties
 * the journal, so a write costs one appended line whatever the size of the state, and loading
 * costs at most about twice reading the snapshot.
 */
export class Persistence implements CommitSink {
  private constructor(
    readonly path: string,
    private readonly lock: DataFileLock,
    private readonly journal: Journal,
    private snapshotBytes: number,
    private readonly serialize: (seq: number) => string,
  ) {}

  /** Locks the data file and loads it; returns it with the sequence number of its last transaction. */
  static async open(
    path: string,
    loader: Loader,
  ): Promise<{ persistence: Persistence; seq: number }> {
    const lock = await DataFileLock.acquire(path);
    try {
      await removeLeftovers(path);
      const read = await readDataFile(path);
      let seq = 0;
      if (read !== undefined) {
        const parsed = Snapshot.safeParse(read.json);
        if (!parsed.success)
          throw new Error(
            `data file ${path} is not a sandbox state file: ${parsed.error.issues[0]?.message}`,
          );
        if (parsed.data.version === 2) seq = parsed.data.seq;
        loader.snapshot(parsed.data.accounts);
      }
      const { journal, lines } = await Journal.open(`${path}.journal`);
      lines.forEach((text, i) => {
        const where = `journal ${journal.path}, line ${i + 1}`;
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw new Error(`${where} is not JSON`);
        }
        const line = JournalLine.safeParse(json);
        if (!line.success)
          throw new Error(`${where} is not a transaction: ${line.error.issues[0]?.message}`);
        // Lines a snapshot already holds are those a crash kept after the snapshot was written.
        if (line.data.seq <= seq) return;
        seq = line.data.seq;
        for (const change of line.data.changes)
          try {
            loader.apply(change);
          } catch (error) {
            throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
          }
      });
      const persistence = new Persistence(path, lock, journal, read?.bytes ?? 0, loader.serialize);
      return { persistence, seq };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  append(text: string): Promise<void> {
    return this.journal.append(text);
  }

  async idle(lastSeq: number): Promise<void> {
    if (this.journal.size > Math.max(COMPACT_MIN_BYTES, this.snapshotBytes))
      await this.compact(lastSeq);
  }

  /**
   * Compacts what is left (a cleanly closed sandbox leaves its state in FILE alone) and lets
   * another sandbox have the data file. Call it once every transaction is settled.
   */
  async close(lastSeq: number): Promise<void> {
    try {
      if (this.journal.size > 0) await this.compact(lastSeq);
    } finally {
      await this.lock.release();
    }
  }

  private async compact(lastSeq: number): Promise<void> {
    // Taken now, before any await: every transaction is durable at this moment.
    const text = this.serialize(lastSeq);
    await writeAtomically(this.path, text);
    this.snapshotBytes = Buffer.byteLength(text);
    await this.journal.clear();
    await crashPoint('snapshot.afterJournalTruncate');
  }
}
