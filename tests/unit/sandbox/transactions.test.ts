import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../sandbox/store/journal.ts';
import {
  PersistError,
  Transactions,
  type CommitSink,
} from '../../../sandbox/store/transactions.ts';

/** A real journal in a fresh directory; `failNext` makes its next append fail, as a full disk would. */
async function journalSink() {
  const path = join(mkdtempSync(join(tmpdir(), 'burrow-tx-')), 'state.json.journal');
  const { journal } = await Journal.open(path);
  const sink = {
    appends: 0,
    failNext: false,
    append: async (text: string) => {
      sink.appends++;
      if (sink.failNext) {
        sink.failNext = false;
        throw new Error('ENOSPC: no space left on device');
      }
      await journal.append(text);
    },
    idle: async () => undefined,
  } satisfies CommitSink & Record<string, unknown>;
  const lines = () =>
    readFileSync(path, 'utf8')
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as { seq: number; changes: unknown[] });
  return { sink, lines };
}

describe('Transactions', () => {
  it('writes one line per transaction, and a burst in one append after the first', async () => {
    const { sink, lines } = await journalSink();
    const tx = new Transactions(sink, 0, () => undefined);
    const writes = Array.from({ length: 20 }, (_, i) =>
      tx.write(() => {
        tx.record({ n: i }, () => undefined);
        return i;
      }),
    );
    expect(await Promise.all(writes)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(sink.appends).toBe(2);
    expect(lines().map((l) => [l.seq, l.changes])).toEqual(
      Array.from({ length: 20 }, (_, i) => [i + 1, [{ n: i }]]),
    );
  });

  it('undoes a block that throws, and a refused batch with every later one, newest first', async () => {
    const { sink, lines } = await journalSink();
    const tx = new Transactions(sink, 0, () => undefined);
    const state: string[] = [];
    const add = (value: string) =>
      tx.write(() => {
        state.push(value);
        tx.record({ value }, () => expect(state.pop()).toBe(value));
      });

    await expect(
      tx.write(() => {
        state.push('half');
        tx.record({ value: 'half' }, () => state.pop());
        throw new Error('refused by a rule');
      }),
    ).rejects.toThrow('refused by a rule');
    expect(state).toEqual([]);

    await add('kept');
    sink.failNext = true;
    const refused = [add('a'), add('b'), add('c')];
    for (const write of refused) await expect(write).rejects.toBeInstanceOf(PersistError);
    expect(state).toEqual(['kept']);
    expect(() => tx.record({}, () => undefined)).toThrow(/outside Store.write/);

    await add('after');
    expect(state).toEqual(['kept', 'after']);
    expect(lines().map((l) => l.changes)).toEqual([[{ value: 'kept' }], [{ value: 'after' }]]);
  });
});
