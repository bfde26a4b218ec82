import { describe, expect, it } from 'vitest';
import {
  RateGovernor,
  type BudgetState,
  type Lease,
  type Priority,
} from '../../../../core/api/governor.ts';
import { FakeClock, flush } from './fake-clock.ts';

function setup(requests = 5, windowMs = 1_000, backgroundReserve?: number) {
  const clock = new FakeClock();
  const governor = new RateGovernor({
    limit: { requests, windowMs },
    clock,
    ...(backgroundReserve === undefined ? {} : { backgroundReserve }),
  });
  const granted: string[] = [];
  const leases = new Map<string, Lease>();
  const take = (name: string, priority: Priority = 'interactive', signal?: AbortSignal) =>
    governor
      .acquire(priority, signal, () => new Error(`aborted ${name}`))
      .then((lease) => {
        granted.push(name);
        leases.set(name, lease);
        return lease;
      });
  const release = (...names: string[]) => names.forEach((n) => leases.get(n)?.release());
  return { clock, governor, granted, take, release };
}

describe('RateGovernor', () => {
  it('grants the whole window at once, then one per slot as the window rolls', async () => {
    const { clock, granted, take, release } = setup(3, 1_000);
    for (const name of ['a', 'b', 'c', 'd', 'e']) void take(name);
    await flush();
    expect(granted).toEqual(['a', 'b', 'c']);
    await clock.advance(100);
    release('a');
    await clock.advance(100);
    release('b', 'c');
    // a's slot ages from its answer at 100 ms, b's and c's from 200 ms.
    await clock.advance(899);
    expect(granted).toEqual(['a', 'b', 'c']);
    await clock.advance(1);
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    await clock.advance(100);
    expect(granted).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('holds a slot while its request is in flight, however long that is', async () => {
    const { clock, granted, take, release } = setup(1, 1_000);
    void take('slow');
    void take('next');
    await clock.advance(5_000);
    expect(granted).toEqual(['slow']);
    release('slow');
    await clock.advance(999);
    expect(granted).toEqual(['slow']);
    await clock.advance(1);
    expect(granted).toEqual(['slow', 'next']);
  });

  it('serves interactive calls before every queued background call, FIFO within each', async () => {
    const { clock, granted, take, release } = setup(2, 1_000, 0);
    void take('first');
    void take('second');
    for (const n of [1, 2, 3]) void take(`bg${n}`, 'background');
    await flush();
    void take('click1');
    void take('click2');
    release('first', 'second');
    await clock.advance(1_000);
    expect(granted).toEqual(['first', 'second', 'click1', 'click2']);
    release('click1', 'click2');
    await clock.advance(1_000);
    expect(granted.slice(4)).toEqual(['bg1', 'bg2']);
  });

  it('keeps a reserve of the window that background work never takes', async () => {
    const { governor, granted, take } = setup(10, 1_000, 0.2);
    for (let i = 0; i < 10; i += 1) void take(`bg${i}`, 'background');
    await flush();
    expect(granted).toHaveLength(8);
    expect(governor.state()).toMatchObject({ used: 8, remaining: 2, queued: { background: 2 } });
    void take('click1');
    void take('click2');
    void take('click3');
    await flush();
    expect(granted.slice(8)).toEqual(['click1', 'click2']);
    expect(governor.state()).toMatchObject({
      remaining: 0,
      queued: { interactive: 1, background: 2 },
    });
  });

  it('lets background work use at least one slot of a tiny window', async () => {
    const { granted, take } = setup(1, 1_000, 0.5);
    void take('bg', 'background');
    await flush();
    expect(granted).toEqual(['bg']);
  });

  it('drops an aborted waiter from the queue without taking its slot', async () => {
    const { clock, governor, granted, take, release } = setup(1, 1_000);
    void take('a');
    const controller = new AbortController();
    const waiting = take('b', 'interactive', controller.signal);
    void take('c');
    await flush();
    controller.abort();
    await expect(waiting).rejects.toThrow('aborted b');
    expect(governor.state().queued.interactive).toBe(1);
    release('a');
    await clock.advance(1_000);
    expect(granted).toEqual(['a', 'c']);
  });

  it('rejects at once with an already-aborted signal', async () => {
    const { take } = setup();
    await expect(take('x', 'interactive', AbortSignal.abort())).rejects.toThrow('aborted x');
  });

  it('tells subscribers about every change of the budget', async () => {
    const { governor, take, release } = setup(2, 1_000);
    const states: BudgetState[] = [];
    const unsubscribe = governor.subscribe((s) => states.push(s));
    await take('a');
    release('a');
    unsubscribe();
    await take('b');
    expect(states.map((s) => s.remaining)).toEqual([1, 1]);
    expect(states[0]).toMatchObject({ capacity: 2, windowMs: 1_000, used: 1 });
  });

  it('sets no timer while nobody waits, so an idle client keeps the process free to exit', async () => {
    const { clock, take, release } = setup(1, 1_000);
    await take('a');
    release('a');
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses a limit that can never grant anything', () => {
    expect(() => new RateGovernor({ limit: { requests: 0, windowMs: 1_000 } })).toThrow(RangeError);
  });
});
