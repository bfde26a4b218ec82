import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { ACCOUNTS, expectError, raw } from './support.ts';

let sandbox: Sandbox;
let api: ReturnType<typeof apiCaller>;
beforeAll(async () => {
  sandbox = await startSandbox({ accounts: ACCOUNTS, rateLimit: 'off' });
  api = apiCaller(sandbox.url, 'alice-key-1');
});
afterEach(() => sandbox.faults.clear());
afterAll(() => sandbox.close());

describe('fault injection', () => {
  it('is off by default', async () => {
    expect(sandbox.faults.list()).toEqual([]);
    expect((await api('GET', '/ip_policies')).status).toBe(200);
  });

  it('answers 5xx in the error shape before any side effect, for the next N matching requests', async () => {
    sandbox.faults.add({
      kind: 'status',
      status: 502,
      method: 'POST',
      pathPrefix: '/ip_policies',
      count: 2,
    });
    for (let i = 0; i < 2; i++) {
      const reply = await api('POST', '/ip_policies', {});
      expect(reply.status).toBe(502);
      expect(reply.body).toMatchObject({ error_code: 'ERR_SERVICE_341', status_code: 502 });
    }
    expect((await api('GET', '/ip_policies')).body.ip_policies).toEqual([]);
    expect(sandbox.faults.list()).toEqual([]);
    expect((await api('POST', '/ip_policies', {})).status).toBe(201);
  });

  it('injects 429 (Retry-After only when given), latency and dropped connections', async () => {
    sandbox.faults.add({ kind: 'rateLimit', count: 1 });
    const bare = await api('GET', '/ip_policies');
    expectError(bare, 'rateLimited');
    expect(bare.headers.get('retry-after')).toBeNull();
    sandbox.faults.add({ kind: 'rateLimit', retryAfterSeconds: 7, count: 1 });
    expect((await api('GET', '/ip_policies')).headers.get('retry-after')).toBe('7');

    sandbox.faults.add({ kind: 'latency', latencyMs: 150, count: 1 });
    const started = performance.now();
    expect((await api('GET', '/ip_policies')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    sandbox.faults.add({ kind: 'drop', count: 1 });
    await expect(api('GET', '/ip_policies')).rejects.toThrow();
    expect((await api('GET', '/ip_policies')).status).toBe(200);
  });

  it('respects probability 0 and never touches /_sandbox or /openapi.json', async () => {
    sandbox.faults.add({ kind: 'status', probability: 0 });
    expect((await api('GET', '/ip_policies')).status).toBe(200);
    sandbox.faults.clear();
    sandbox.faults.add({ kind: 'status' });
    expect((await api('GET', '/_sandbox/faults')).status).toBe(200);
    expect((await fetch(`${sandbox.url}/openapi.json`)).status).toBe(200);
    expect((await api('GET', '/ip_policies')).status).toBe(503);
  });

  it('rejects malformed rules', () => {
    expect(() => sandbox.faults.add({ kind: 'latency' })).toThrow(/latencyMs/);
    expect(() => sandbox.faults.add({ kind: 'drop', status: 500 })).toThrow(/status/);
    expect(() => sandbox.faults.add({ kind: 'status', probability: 2 })).toThrow(/probability/);
  });

  it('is switchable over HTTP with an admin key', async () => {
    const added = await api('POST', '/_sandbox/faults', { kind: 'status', status: 504, count: 1 });
    expect(added.status).toBe(201);
    expect(added.body.faults).toEqual([{ kind: 'status', status: 504, count: 1 }]);
    expect((await api('GET', '/_sandbox/faults')).body.faults).toHaveLength(1);
    expect((await api('GET', '/ip_policies')).status).toBe(504);
    await api('POST', '/_sandbox/faults', { kind: 'drop' });
    expect((await api('DELETE', '/_sandbox/faults')).status).toBe(204);
    expect(sandbox.faults.list()).toEqual([]);
    expectError(await api('POST', '/_sandbox/faults', { kind: 'boom' }), 'invalidValue');
    expectError(
      await apiCaller(sandbox.url, 'bob-key-1')('GET', '/_sandbox/faults'),
      'unknownApiKey',
    );
    expectError(
      await raw(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' }),
      'noAuthorization',
    );
  });
});
