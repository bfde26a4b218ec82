import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../core/api/client.ts';
import {
  InvalidApiKeyError,
  InvalidArgumentError,
  UnsafeUrlError,
} from '../../../../core/api/errors.ts';
import type { PathParams } from '../../../../shared/api/catalog/endpoint-builders.ts';
import { ENDPOINTS } from '../../../../shared/api/catalog/endpoints.ts';
import { ID_PREFIXES, type IdKind } from '../../../../shared/api/values/ids.ts';
import { clientOf, startSandbox, type Sandbox } from './support.ts';

/*
 * What the client refuses before anything reaches the service. The sandbox admits one request
 * an hour: the call at the end of each test would be a 429 had any refused one been sent.
 */
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: 'guards-key',
    rateLimit: { requests: 1, windowSeconds: 3_600 },
  });
});

afterAll(() => sandbox.close());

const KINDS = Object.keys(ID_PREFIXES) as IdKind[];
const idOf = (kind: IdKind) => `${ID_PREFIXES[kind]}2hQbE3xYs7JqLmN0pRt`;

describe('path parameters', () => {
  let client: ApiClient;
  beforeAll(() => {
    client = clientOf(sandbox).client;
  });
  afterAll(() => client.close());

  const cases = ENDPOINTS.flatMap((e) =>
    Object.entries(e.pathParams as PathParams).map(([name, kind]) => ({ e, name, kind })),
  );

  it('cover every endpoint with a path parameter', () => {
    expect(new Set(cases.map((c) => c.e.name)).size).toBe(
      ENDPOINTS.filter((e) => Object.keys(e.pathParams).length > 0).length,
    );
  });

  it.each(cases.map((c) => [c.e.name, c.name, c] as const))(
    '%s refuses "..", "." and any other kind\'s id as "%s", without taking a slot',
    async (_, __, { e, name, kind }) => {
      const valid = Object.fromEntries(
        Object.entries(e.pathParams as PathParams).map(([n, k]) => [n, idOf(k)]),
      );
      const wrong = KINDS.filter((k) => k !== kind).map(idOf);
      for (const value of ['..', '.', ...wrong]) {
        const call = client.call(
          e.name as 'ipPolicies.get',
          {
            params: { ...valid, [name]: value } as { id: string },
            body: {},
          } as never,
        );
        await expect(call, value).rejects.toThrow(InvalidArgumentError);
        await expect(call, value).rejects.toMatchObject({ operation: e.name, field: name });
      }
      expect(client.budget().used).toBe(0);
    },
  );

  it('sent none of them', async () => {
    await expect(client.ipPolicies.list()).resolves.toMatchObject({ ip_policies: [] });
  });
});

describe('the client refuses to be made', () => {
  it('with a key that has a line break, naming the problem and never the key', () => {
    const make = () =>
      createApiClient({ baseUrl: sandbox.url, apiKey: `${sandbox.apiKey ?? ''}\n` });
    expect(make).toThrow(InvalidApiKeyError);
    expect(make).toThrow(/^The API key has a line break at its end; copy it again without it$/);
  });

  it('over plain http to a *.localhost name, which DNS could send anywhere', () => {
    const { port } = new URL(sandbox.url);
    expect(() =>
      createApiClient({ baseUrl: `http://api.localhost:${port}`, apiKey: 'guards-key' }),
    ).toThrow(UnsafeUrlError);
  });
});
