import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { ipcApiCalls } from '../../../../core/api/ipc-calls.ts';
import { dispatchIpc, type IpcImplementation } from '../../../../core/ipc/dispatch.ts';
import { API_CALLS } from '../../../../shared/app/ipc/api-calls.ts';
import type { ApiProgress } from '../../../../shared/app/ipc/contract.ts';
import { clientOf, startSandbox, type Sandbox } from './support.ts';

/*
 * The contract's `api.*` calls as a window makes them: through the dispatcher, which finds the
 * catalog entry and checks the arguments, to a client of the real sandbox, which is handed that
 * entry. Every list of the catalog, page and whole; a resource's life; a long list cancelled.
 */
let sandbox: Sandbox;
const clients: ApiClient[] = [];
const progress: ApiProgress[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'ipc-calls-key', rateLimit: 'off' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox?.close();
});

function app(options: Parameters<typeof clientOf>[1] = {}) {
  const { client } = clientOf(sandbox, options);
  clients.push(client);
  const api = ipcApiCalls({ client: async () => client, onProgress: (p) => progress.push(p) });
  const implementation = {
    calls: { 'api.cancel': api.cancel },
    call: api.call,
    listAll: api.listAll,
  } as unknown as IpcImplementation;
  const call = (name: string, ...args: unknown[]) => dispatchIpc(implementation, name, args);
  const value = async <T>(name: string, ...args: unknown[]): Promise<T> => {
    const reply = await call(name, ...args);
    if (!reply.ok) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
    return reply.value as T;
  };
  return { client, call, value };
}

type Item = { id: string };

describe('the api calls through the dispatcher', () => {
  it('answer every list of the catalog, by page and whole, with the same items', async () => {
    const { value } = app();
    await value('api.ipPolicies.create', { body: { description: 'listed' } });
    const lists = [...API_CALLS.values()].flatMap((entry) => (entry.listAll ? [entry] : []));
    expect(lists.length).toBeGreaterThan(10);
    for (const { endpoint } of lists) {
      const group = endpoint.name.slice(0, -'.list'.length);
      const page = await value<Record<string, Item[]>>(`api.${endpoint.name}`, {
        query: { limit: 100 },
      });
      const whole = await value<Item[]>(`api.${group}.listAll`, {
        query: { limit: 2 },
        requestId: group,
      });
      expect(
        whole.map((i) => i.id),
        group,
      ).toEqual(page[endpoint.listKey]?.map((i) => i.id));
    }
    expect(progress.find((p) => p.requestId === 'ipPolicies')).toMatchObject({
      loaded: 1,
      pages: 1,
    });
  });

  it('create, read, update and delete a resource by the entry the dispatcher found', async () => {
    const { value, call } = app();
    const made = await value<Item>('api.ipPolicies.create', { body: { description: 'office' } });
    const params = { id: made.id };
    expect(await value('api.ipPolicies.get', { params })).toMatchObject(made);
    expect(
      await value('api.ipPolicies.update', { params, body: { description: 'home' } }),
    ).toMatchObject({ id: made.id, description: 'home' });
    expect(await value('api.ipPolicies.delete', { params })).toBeUndefined();
    expect(await call('api.ipPolicies.get', { params })).toMatchObject({
      ok: false,
      error: { code: expect.stringMatching(/^ERR_SERVICE_/), status: 404 },
    });
  });

  it("refuse a body the API would refuse, with the API's code and field, before it takes a slot", async () => {
    const { call, client } = app();
    const reply = await call('api.ipPolicies.create', { body: { description: 'é'.repeat(128) } });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'ERR_SERVICE_420', field: 'description' },
    });
    expect(client.budget().used).toBe(0);
  });

  it('stop a list that is still running when api.cancel names it', async () => {
    const { value } = app();
    for (let i = 0; i < 3; i++) await value('api.ipPolicies.create', { body: {} });
    // One request a minute: the second page waits for a slot until the list is cancelled.
    const slow = app({ rateLimit: { requests: 1, windowMs: 60_000 } });
    const list = slow.call('api.ipPolicies.listAll', { query: { limit: 1 }, requestId: 'long' });
    await expect.poll(() => slow.client.budget().used).toBe(1);
    expect(await slow.value('api.cancel', 'long')).toBe(true);
    expect(await list).toMatchObject({ ok: false, error: { code: 'CLIENT_AbortError' } });
    expect(await slow.value('api.cancel', 'long')).toBe(false);
  });

  it('wait at background priority for a list asked for in the background, behind clicks', async () => {
    const { value } = app();
    for (let i = 0; i < 2; i++) await value('api.ipPolicies.create', { body: {} });
    for (const background of [true, false]) {
      // One request a minute: the second page waits, in the queue of its priority.
      const slow = app({ rateLimit: { requests: 1, windowMs: 60_000 } });
      const requestId = `refs${String(background)}`;
      const list = slow.call('api.ipPolicies.listAll', {
        query: { limit: 1 },
        requestId,
        ...(background && { priority: 'background' as const }),
      });
      await expect
        .poll(() => slow.client.budget().queued)
        .toEqual(
          background ? { interactive: 0, background: 1 } : { interactive: 1, background: 0 },
        );
      await slow.value('api.cancel', requestId);
      await list;
    }
  });
});
