import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../core/api/client.ts';
import { AbortError, ApiError, NetworkError, UnsafeUrlError } from '../../../../core/api/errors.ts';
import { RateGovernor } from '../../../../core/api/governor.ts';
import { FakeClock } from '../../../support/fake-clock.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { clientOf, startSandbox, type Sandbox, type SandboxOptions } from './support.ts';
import { freePort } from '../../../support/free-port.ts';

/*
 * The client against the sandbox's rate limit and fault injection: each test starts its own
 * sandbox (a fresh window) and closes it, with its clients, when done.
 */
const open: { close(): Promise<void> }[] = [];

/**
 * A sandbox whose rate limit runs on `clock`, the one its test's clients get: the window rolls
 * as the test moves time, not in real seconds.
 */
async function sandboxOn(
  clock: FakeClock,
  options: Partial<SandboxOptions> = {},
): Promise<Sandbox> {
  return sandboxWith({ ...options, clock });
}

async function sandboxWith(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ apiKey: 'resilience-key', rateLimit: 'off', ...options });
  open.push(sandbox);
  return sandbox;
}

function track<T extends { client: ApiClient }>(made: T): T {
  open.unshift({ close: () => made.client.close() });
  return made;
}

afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

describe('429s', () => {
  it('waits out a storm of 429s without an error reaching the caller, reporting each wait', async () => {
    const sandbox = await sandboxWith();
    // The 429s are counted, not timed: the cool-downs pass on the test's clock, at once.
    const clock = new FakeClock();
    const { client, waits } = track(clientOf(sandbox, { clock }));
    sandbox.faults.add({ kind: 'rateLimit', count: 6 });
    const created = await clock.runUntil(
      Promise.all([
        client.ipPolicies.create({ description: 'a' }),
        client.ipPolicies.create({ description: 'b' }),
        client.ipPolicies.list(),
      ]),
    );
    expect(created).toHaveLength(3);
    expect(waits()).toHaveLength(6);
    for (const wait of waits())
      expect(wait.message).toMatch(/^Rate limited, retrying in \d+(\.\d)? s$/);
    const all = await client.ipPolicies.listAll();
    expect(all.map((p) => p.description).sort()).toEqual(['a', 'b']);
  });

  it('shares the account with another program that ignores the limit, and still never fails', async () => {
    const clock = new FakeClock();
    const sandbox = await sandboxOn(clock, { rateLimit: { requests: 5, windowSeconds: 1 } });
    // Our client keeps to the limit; the other program believes it has ten times as much.
    const ours = track(clientOf(sandbox, { rateLimit: { requests: 5, windowMs: 1_000 }, clock }));
    const greedy = track(
      clientOf(sandbox, { rateLimit: { requests: 50, windowMs: 1_000 }, clock }),
    );
    const calls = [
      ...Array.from({ length: 8 }, (_, i) =>
        ours.client.ipPolicies.create({ description: `o${i}` }),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        greedy.client.ipPolicies.create({ description: `g${i}` }),
      ),
    ];
    const results = await clock.runUntil(Promise.allSettled(calls));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(ours.waits().length + greedy.waits().length).toBeGreaterThan(0);
    const all = await clock.runUntil(ours.client.ipPolicies.listAll());
    expect(all).toHaveLength(16);
  });

  it('honours a Retry-After within its policy: a 0 is no burst, a day is its longest wait', async () => {
    const sandbox = await sandboxWith();
    // Time moves only from wait to wait: each wait is told whole, however busy the machine.
    const clock = new FakeClock();
    const { client, waits } = track(
      clientOf(sandbox, {
        retry: { rateLimitBackoff: { baseMs: 100, maxMs: 1_000 } },
        // No jitter, so that each wait is known: the hint clamped to [100, 1000].
        random: () => 0,
        clock,
      }),
    );
    for (const retryAfterSeconds of [1, 0, 86_400])
      sandbox.faults.add({ kind: 'rateLimit', count: 1, retryAfterSeconds });
    await clock.runUntil(client.ipPolicies.list());
    expect(waits().map((w) => w.retryInMs)).toEqual([1_000, 100, 1_000]);
  });

  it.each([
    ['without Retry-After, as the real service', false],
    ['with Retry-After', true],
  ])(
    'rides out a storm %s with five callers: one shared cool-down, one request per cool-down',
    async (_, retryAfter) => {
      const clock = new FakeClock();
      const sandbox = await sandboxOn(clock, {
        rateLimit: { requests: 5, windowSeconds: 2 },
        retryAfter,
      });
      // Another program on the account spends the whole window first.
      const other = apiCaller(sandbox.url, sandbox.apiKey ?? '');
      for (let i = 0; i < 5; i += 1) expect((await other('GET', '/ip_policies')).status).toBe(200);
      const { client, waits, events } = track(
        clientOf(sandbox, {
          retry: { rateLimitBackoff: { baseMs: 600, maxMs: 800 } },
          random: () => 0.99,
          clock,
        }),
      );
      const calls = Array.from({ length: 5 }, (_, i) =>
        client.ipPolicies.create({ description: `c${i}` }),
      );
      await expect(clock.runUntil(Promise.all(calls))).resolves.toHaveLength(5);
      // The five went out together and met the wall together: one cool-down for all five. Then
      // one probe per cool-down of at least 594 ms: within the 2 s storm, at most two refused.
      const refused = waits().length;
      expect(refused).toBeGreaterThanOrEqual(5);
      expect(refused).toBeLessThanOrEqual(7);
      const cooldowns = events
        .filter((e) => e.type === 'budget')
        .map((e) => e.cooldownMs)
        .filter((ms, i, all) => ms > 0 && (all[i - 1] ?? 0) === 0);
      expect(cooldowns).toHaveLength(refused - 4);
    },
  );

  it('cancels at once a call aborted mid-backoff', async () => {
    const sandbox = await sandboxWith();
    // A cool-down longer than the test's timeout: only a prompt cancel lets the test end.
    const patient = { rateLimitBackoff: { baseMs: 120_000, maxMs: 120_000 } };
    const { client, waits } = track(clientOf(sandbox, { retry: patient }));
    sandbox.faults.add({ kind: 'rateLimit', retryAfterSeconds: 60 });
    const controller = new AbortController();
    const call = client.ipPolicies.create({ description: 'never' }, { signal: controller.signal });
    await expect.poll(() => waits().length).toBe(1);
    controller.abort();
    await expect(call).rejects.toThrow(AbortError);
    expect(waits()).toHaveLength(1);
    sandbox.faults.clear();
    // This key's governor is still cooling down; a client of its own shows nothing was created.
    expect(await track(clientOf(sandbox)).client.ipPolicies.listAll()).toEqual([]);
  });

  it('keeps a governed sync under the limit: zero 429s', async () => {
    const clock = new FakeClock();
    const sandbox = await sandboxOn(clock, { rateLimit: { requests: 5, windowSeconds: 1 } });
    const seeder = track(clientOf(sandbox, { rateLimit: { requests: 5, windowMs: 1_000 }, clock }));
    await clock.runUntil(
      Promise.all(Array.from({ length: 7 }, () => seeder.client.ipPolicies.create())),
    );
    const pages: number[] = [];
    const all = await clock.runUntil(
      seeder.client.ipPolicies.listAll({
        query: { limit: 1 },
        onProgress: (_, p) => pages.push(p),
      }),
    );
    expect(all).toHaveLength(7);
    expect(pages).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seeder.waits()).toEqual([]);
  });
});

describe('priorities', () => {
  it("lets a person's call overtake a queue of background calls", async () => {
    const sandbox = await sandboxWith({ rateLimit: { requests: 5, windowSeconds: 1 } });
    const governor = new RateGovernor({
      limit: { requests: 5, windowMs: 1_000 },
      backgroundReserve: 0,
    });
    const { client } = track(clientOf(sandbox, { governor }));
    const done: string[] = [];
    const background = Array.from({ length: 12 }, (_, i) =>
      client.ipPolicies.list(undefined, { priority: 'background' }).then(() => done.push(`bg${i}`)),
    );
    await expect.poll(() => governor.state().queued.background).toBe(7);
    await client.ipPolicies.create({ description: 'clicked' }).then(() => done.push('click'));
    await Promise.all(background);
    // The five that held the window finish first; the click goes before the seven queued ones.
    expect(done.indexOf('click')).toBe(5);
  });

  it('keeps part of the window free for people while background work runs', async () => {
    const clock = new FakeClock();
    const sandbox = await sandboxOn(clock, { rateLimit: { requests: 10, windowSeconds: 2 } });
    const { client } = track(
      clientOf(sandbox, { rateLimit: { requests: 10, windowMs: 2_000 }, clock }),
    );
    const done: string[] = [];
    const background = Array.from({ length: 20 }, (_, i) =>
      client.tunnelSessions
        .list(undefined, { priority: 'background' })
        .then(() => done.push(`bg${i}`)),
    );
    await expect.poll(() => client.budget().used).toBe(8);
    await clock.runUntil(client.ipPolicies.create().then(() => done.push('click')));
    await clock.runUntil(Promise.all(background));
    // Background work stopped at 8 of 10: the click went in the same window, before the rest.
    expect(done.indexOf('click')).toBeLessThanOrEqual(8);
  });
});

describe('faults', () => {
  it('retries a GET through dropped connections and 5xx, then answers', async () => {
    const sandbox = await sandboxWith();
    const { client, retries } = track(clientOf(sandbox));
    const policy = await client.ipPolicies.create({ description: 'resilient' });
    sandbox.faults.add({ kind: 'drop', method: 'GET', count: 1 });
    sandbox.faults.add({ kind: 'status', status: 502, method: 'GET', count: 1 });
    sandbox.faults.add({ kind: 'status', status: 503, method: 'GET', count: 1 });
    sandbox.faults.add({ kind: 'status', status: 504, method: 'GET', count: 1 });
    await expect(client.ipPolicies.get(policy.id)).resolves.toMatchObject({ id: policy.id });
    expect(retries()).toHaveLength(4);
    expect(retries()[0]?.message).toMatch(/Could not reach 127\.0\.0\.1:\d+.*; retrying in/);
  });

  it('retries a PUT and a DELETE too: they are idempotent', async () => {
    const sandbox = await sandboxWith();
    const { client, retries } = track(clientOf(sandbox));
    const edge = await client.tlsEdges.create({ hostports: ['a.example.com:443'] });
    sandbox.faults.add({ kind: 'drop', method: 'PUT', count: 1 });
    sandbox.faults.add({ kind: 'status', status: 503, method: 'DELETE', count: 1 });
    await client.tlsEdges.tls_termination.replace(edge.id, { terminate_at: 'upstream' });
    await expect(client.tlsEdges.delete(edge.id)).resolves.toBeUndefined();
    expect(retries()).toHaveLength(2);
  });

  it('gives up on a GET after a bounded number of retries, with a clear error', async () => {
    const sandbox = await sandboxWith();
    const { client, retries } = track(clientOf(sandbox));
    sandbox.faults.add({ kind: 'status', status: 503, method: 'GET' });
    const error = await client.ipPolicies.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, operationId: expect.stringMatching(/^op_/) });
    expect(retries()).toHaveLength(4);
  });

  it('does not repeat a POST after a dropped connection or a 5xx', async () => {
    const sandbox = await sandboxWith();
    const { client, retries } = track(clientOf(sandbox));
    sandbox.faults.add({ kind: 'drop', method: 'POST', count: 1 });
    const dropped = await client.ipPolicies.create({ description: 'x' }).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(NetworkError);
    expect((dropped as NetworkError).message).toMatch(/^Could not reach 127\.0\.0\.1:\d+/);
    sandbox.faults.add({ kind: 'status', status: 502, method: 'POST', count: 1 });
    const failed = await client.ipPolicies.create({ description: 'y' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ status: 502 });
    sandbox.faults.add({ kind: 'status', status: 503, method: 'PATCH', count: 1 });
    const policy = await client.ipPolicies.create({ description: 'z' });
    await expect(client.ipPolicies.update(policy.id, { description: 'w' })).rejects.toThrow(
      ApiError,
    );
    expect(retries()).toEqual([]);
    // Faults come before the API: nothing was created twice, nor at all by the failed calls.
    expect((await client.ipPolicies.listAll()).map((p) => p.description)).toEqual(['z']);
  });

  it('times out a GET that hangs and retries it', async () => {
    const sandbox = await sandboxWith();
    const { client, retries } = track(clientOf(sandbox, { transport: { responseTimeoutMs: 300 } }));
    sandbox.faults.add({ kind: 'latency', latencyMs: 2_500, method: 'GET', count: 1 });
    await expect(client.ipPolicies.list()).resolves.toMatchObject({ ip_policies: [] });
    expect(retries()[0]?.reason).toMatch(/did not answer in time/);
  });

  it('cancels an in-flight call at once', async () => {
    const sandbox = await sandboxWith();
    const { client } = track(clientOf(sandbox));
    sandbox.faults.add({ kind: 'latency', latencyMs: 5_000, count: 1 });
    const call = client.ipPolicies.list(undefined, { signal: AbortSignal.timeout(100) });
    await expect(call).rejects.toThrow(AbortError);
  });
});

describe('the API key stays home', () => {
  it('refuses a next_page_uri on another origin, without requesting it', async () => {
    const port = await freePort();
    await sandboxWith({ port, baseUrl: 'https://evil.example.com' });
    const { client } = track({
      client: createApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'resilience-key' }),
    });
    await Promise.all([client.ipPolicies.create(), client.ipPolicies.create()]);
    const before = client.budget().used;
    const error = await client.ipPolicies.listAll({ query: { limit: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as Error).message).toMatch(/another origin \(https:\/\/evil\.example\.com/);
    expect(client.budget().used - before).toBe(1);
  });
});
