import { describe, expect, it } from 'vitest';
import {
  RateGovernor,
  type BudgetState,
  type Lease,
  type Priority,
} from '../../../../core/api/governor.ts';
import { FakeClock, flush } from '../../../support/fake-clock.ts';

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
  const streaks: number[] = [];
  const frees: (number | undefined)[] = [];
  /** Ends `name`'s request with a 429, asking for a cool-down of `ms`; records what it was told. */
  const refuse = (name: string, ms: number) =>
    leases.get(name)?.refused((streak, freesInMs) => {
      streaks.push(streak);
      frees.push(freesInMs);
      return ms;
    });
  return { clock, governor, granted, take, release, refuse, streaks, frees };
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
    const unsubscribe = governor.onChange((s) => states.push(s));
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

describe('RateGovernor after a 429', () => {
  it('stops every caller for one shared cool-down, reported once, however many were refused', async () => {
    const { clock, governor, granted, take, refuse, streaks } = setup(10, 1_000);
    const cooldowns: number[] = [];
    governor.onChange((s) => cooldowns.push(s.cooldownMs));
    for (const name of ['a', 'b', 'c']) void take(name);
    await flush();
    expect(refuse('a', 500)).toBe(500);
    await clock.advance(10);
    // b and c left before anyone knew of the wall: their 429s are the same storm.
    expect(refuse('b', 9_999)).toBe(490);
    expect(refuse('c', 9_999)).toBe(490);
    expect(streaks).toEqual([0]);
    expect(governor.state()).toMatchObject({ cooldownMs: 490, used: 3, remaining: 7 });
    const starts = cooldowns.filter((ms, i) => ms > 0 && (cooldowns[i - 1] ?? 0) === 0);
    expect(starts).toHaveLength(1);
    void take('d');
    await clock.advance(489);
    expect(granted).toEqual(['a', 'b', 'c']);
    expect(governor.state().queued.interactive).toBe(1);
    await clock.advance(1);
    expect(granted).toEqual(['a', 'b', 'c', 'd']);
    expect(cooldowns.at(-1)).toBe(0);
  });

  it('then lets one request go alone, interactive first, and the rest once it gets through', async () => {
    const { clock, granted, take, release, refuse } = setup(10, 1_000);
    void take('a');
    await flush();
    refuse('a', 100);
    void take('bg', 'background');
    void take('b');
    void take('c');
    await clock.advance(100);
    expect(granted).toEqual(['a', 'b']);
    await clock.advance(1_000);
    expect(granted).toEqual(['a', 'b']);
    release('b');
    await flush();
    expect(granted).toEqual(['a', 'b', 'c', 'bg']);
  });

  it('cools down longer while the probes keep hitting the wall, and starts over once one passes', async () => {
    const { clock, take, release, refuse, streaks } = setup(10, 1_000);
    void take('a');
    await flush();
    refuse('a', 100);
    for (const probe of ['p1', 'p2', 'p3']) {
      void take(probe);
      await clock.advance(100);
      refuse(probe, 100);
    }
    void take('p4');
    await clock.advance(100);
    release('p4');
    void take('e');
    await flush();
    refuse('e', 100);
    expect(streaks).toEqual([0, 1, 2, 3, 0]);
  });

  it('tells the cool-down when its oldest admitted request leaves the window', async () => {
    const { clock, take, release, refuse, frees } = setup(10, 1_000);
    for (const name of ['a', 'b', 'c', 'd']) void take(name);
    await flush();
    refuse('a', 10);
    await clock.advance(10);
    void take('probe');
    await flush();
    // With nothing admitted in the window, there is nothing to tell.
    refuse('probe', 10);
    await clock.advance(100);
    release('b');
    await clock.advance(200);
    release('c');
    void take('e');
    await clock.advance(10);
    refuse('e', 10);
    // At 320, b (answered at 110) leaves the window first, at 1110; refused ones held no place.
    expect(frees).toEqual([undefined, undefined, 790]);
  });

  it('lets a caller give up during the cool-down', async () => {
    const { clock, governor, take, refuse } = setup(10, 1_000);
    void take('a');
    await flush();
    refuse('a', 60_000);
    const controller = new AbortController();
    const waiting = governor.acquire('interactive', controller.signal, () => new Error('gave up'));
    await clock.advance(10);
    controller.abort();
    await expect(waiting).rejects.toThrow('gave up');
    expect(governor.state().queued.interactive).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });
});
