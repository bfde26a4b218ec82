import { expect, it } from 'vitest';
import { inHeldOrder } from '../../../renderer/src/screens/sessions/held-order.ts';

type Row = { id: string; state: string };
const key = (r: Row) => r.id;

it('keeps the held places while the order underneath changes, with the rows’ new data', () => {
  const before = ['web', 'db', 'ci'];
  // db went offline: core's order puts it first now.
  const now: Row[] = [
    { id: 'db', state: 'offline' },
    { id: 'ci', state: 'online' },
    { id: 'web', state: 'online' },
  ];
  expect(inHeldOrder(now, before, key)).toEqual([
    { id: 'web', state: 'online' },
    { id: 'db', state: 'offline' },
    { id: 'ci', state: 'online' },
  ]);
});

it('puts what came since after the held rows, and drops what went', () => {
  const now: Row[] = [
    { id: 'new', state: 'online' },
    { id: 'ci', state: 'online' },
  ];
  expect(inHeldOrder(now, ['web', 'ci'], key).map(key)).toEqual(['ci', 'new']);
});
