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
});
