type Undo = () => void;

/** Where committed transactions go: the journal, and what runs when it has caught up. */
export interface CommitSink {
  /** Makes the lines durable, or throws. */
  append(text: string): Promise<void>;
  /** Runs when every committed transaction is durable and none waits (compaction); may throw. */
  idle(lastSeq: number): Promise<void>;
}

type Tx = {
  readonly line: string;
  readonly undos: readonly Undo[];
  readonly settle: { resolve(): void; reject(error: Error): void };
};

/** A write the data file refused: it was undone, as was every later one that depended on it. */
export class PersistError extends Error {}

/**
 * The store's changes, as transactions. A transaction is the changes of one synchronous block
 * (`write`): JavaScript runs it whole, so it sees no other transaction half-done. It is undone
 * when the block throws; otherwise it becomes one journal line, and `write` resolves once that
 * line is durable.
 *
 * Durability is a group commit: lines sealed while a write runs share the next one. When a write
 * fails, that batch and every transaction sealed after it are undone, newest first, and refused:
 * memory is back to what is on disk, so a caller told "failed" never finds its change later.
 */
export class Transactions {
  private open = false;
  private changes: { readonly entry: unknown; readonly undo: Undo }[] = [];
  /** Sealed and not yet durable, oldest first: the batch being written, then those waiting. */
  private unsettled: Tx[] = [];
  private writing = 0;
  private draining: Promise<void> | undefined;

  constructor(
    private readonly sink: CommitSink | undefined,
    private seq: number,
    private readonly log: (line: string) => void,
  ) {}

  /** The sequence number of the newest transaction sealed so far. */
  get lastSeq(): number {
    return this.seq;
  }

  record(entry: unknown, undo: Undo): void {
    if (!this.open) throw new Error('a change to the store outside Store.write');
    this.changes.push({ entry, undo });
  }

  write<T>(block: () => T): Promise<Awaited<T>> {
    // A write inside a write is part of it.
    if (this.open) return Promise.resolve(block());
    this.open = true;
    let result: T;
    try {
      result = block();
    } catch (error) {
      this.undo(this.changes.map((c) => c.undo));
      return Promise.reject(error as Error);
    } finally {
      this.open = false;
    }
    const changes = this.changes.splice(0);
    if (changes.length === 0 || !this.sink) return Promise.resolve(result);
    const durable = new Promise<void>((resolve, reject) => {
      const line = `${JSON.stringify({ seq: ++this.seq, changes: changes.map((c) => c.entry) })}\n`;
      this.unsettled.push({ line, undos: changes.map((c) => c.undo), settle: { resolve, reject } });
    });
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
    return durable.then(() => Promise.resolve(result));
  }

  /** Resolves once every transaction sealed so far is durable or refused. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    while (this.unsettled.length > this.writing) {
      const batch = this.unsettled.slice(this.writing);
      this.writing = this.unsettled.length;
      try {
        await sink.append(batch.map((tx) => tx.line).join(''));
      } catch (error) {
        this.refuseAll(error);
        continue;
      }
      this.unsettled.splice(0, batch.length);
      this.writing = 0;
      for (const tx of batch) tx.settle.resolve();
      if (this.unsettled.length === 0)
        await sink
          .idle(this.seq)
          .catch((error: unknown) => this.log(`data file: ${String(error)}`));
    }
  }

  /** Undoes every unsettled transaction, newest first, and refuses each. */
  private refuseAll(cause: unknown): void {
    const refused = this.unsettled.splice(0);
    this.writing = 0;
    this.undo(refused.flatMap((tx) => tx.undos));
    const error = new PersistError(
      `the change could not be saved to the data file, and was not made: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.log(error.message);
    for (const tx of refused) tx.settle.reject(error);
  }

  private undo(undos: readonly Undo[]): void {
    for (let i = undos.length - 1; i >= 0; i--) undos[i]?.();
    this.changes = [];
  }
}
