import { describe, expect, it } from 'vitest';
import { Collection } from '../../../sandbox/store/collection.ts';

const filled = (n: number) => {
  const c = new Collection<{ id: string }>();
  for (let i = 0; i < n; i++) c.insert({ id: `x${i}` });
  return c;
};
const ids = (items: readonly { id: string }[]) => items.map((i) => i.id);

describe('Collection', () => {
  it('pages newest first with a before_id cursor', () => {
    const c = filled(5);
    expect(c.page(2)).toEqual({ items: [{ id: 'x4' }, { id: 'x3' }], next: 'x3' });
    expect(ids(c.page(2, 'x3')?.items ?? [])).toEqual(['x2', 'x1']);
    expect(c.page(2, 'x1')).toEqual({ items: [{ id: 'x0' }], next: undefined });
    expect(c.page(5)?.next).toBeUndefined();
    expect(c.page(4)?.next).toBe('x1');
    expect(c.page(3, 'nope')).toBeUndefined();
  });

  it('skips deleted items, continues from a deleted cursor and compacts', () => {
    const c = filled(100);
    for (let i = 0; i < 90; i++) if (i % 3 !== 0) c.delete(`x${i}`);
    expect(c.size).toBe(40);
    expect(ids(c.page(3, 'x89')?.items ?? [])).toEqual(['x87', 'x84', 'x81']);
    expect(ids(c.page(100)?.items ?? [])).toHaveLength(40);
    expect(c.get('x1')).toBeUndefined();
    expect(c.get('x3')).toEqual({ id: 'x3' });
    const rest = c.page(100, 'x3');
    expect(rest).toEqual({ items: [{ id: 'x0' }], next: undefined });
  });

  it('replaces in place and iterates oldest first', () => {
    const c = new Collection<{ id: string; v: number }>();
    c.insert({ id: 'a', v: 1 });
    c.insert({ id: 'b', v: 1 });
    c.replace({ id: 'a', v: 2 });
    expect([...c.values()]).toEqual([
      { id: 'a', v: 2 },
      { id: 'b', v: 1 },
    ]);
    expect(() => c.replace({ id: 'z', v: 0 })).toThrow();
  });

  it('undoes inserts, replaces and deletes newest first, back to the same list and cursors', () => {
    const undos: (() => void)[] = [];
    const c = new Collection<{ id: string; v: number }>((_change, undo) => undos.push(undo));
    for (let i = 0; i < 80; i++) c.insert({ id: `x${i}`, v: 0 });
    undos.length = 0;
    const before = { all: [...c.values()], page: c.page(5, 'x40') };

    // Enough deletes to compact the list, so that an undo puts an entry back into it.
    for (let i = 0; i < 70; i++) c.delete(`x${i}`);
    c.replace({ id: 'x75', v: 1 });
    c.insert({ id: 'y', v: 0 });
    expect(c.size).toBe(11);
    for (const undo of undos.reverse()) undo();

    expect([...c.values()]).toEqual(before.all);
    expect(c.page(5, 'x40')).toEqual(before.page);
    expect(c.get('y')).toBeUndefined();
    expect(c.size).toBe(80);
    c.insert({ id: 'z', v: 0 });
    expect(c.page(1)?.items).toEqual([{ id: 'z', v: 0 }]);
  });

  it('makes no change its observer refuses', () => {
    let refuse = false;
    const c = new Collection<{ id: string; v: number }>(() => {
      if (refuse) throw new Error('outside a write');
    });
    c.insert({ id: 'a', v: 1 });
    refuse = true;
    expect(() => c.insert({ id: 'b', v: 1 })).toThrow();
    expect(() => c.replace({ id: 'a', v: 2 })).toThrow();
    expect(() => c.delete('a')).toThrow();
    expect([...c.values()]).toEqual([{ id: 'a', v: 1 }]);
    expect(c.get('b')).toBeUndefined();
  });
});
