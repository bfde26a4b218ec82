import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../../core/api/client.ts';
import { InvalidArgumentError } from '../../../../core/api/errors.ts';
import { ENDPOINTS, type EndpointName } from '../../../../shared/api/catalog/endpoints.ts';
import type { IPPolicy } from '../../../../shared/api/kinds/ip-policies.ts';
import type { HTTPSEdgeRoute } from '../../../../shared/api/kinds/https-edge-routes.ts';
import type { CallOptions } from '../../../../core/api/types.ts';
import type { TLSEdge } from '../../../../shared/api/kinds/tls-edges.ts';
import type { EndpointBackend } from '../../../../shared/api/kinds/edge-modules.ts';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

/** Answers every request with 204 and records it: the facade's mapping is what is tested here. */
let server: Server;
let client: ApiClient;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = createApiClient({ baseUrl: `http://127.0.0.1:${port}/api`, apiKey: 'secret-key' });
});

afterAll(async () => {
  await client.close();
  await new Promise((resolve) => server.close(resolve));
});

function lookup(root: unknown, name: string): unknown {
  return name
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], root);
}

describe('the typed surface', () => {
  it('has a facade method for every endpoint of the catalog', () => {
    expect(ENDPOINTS).toHaveLength(132);
    for (const e of ENDPOINTS) expect(typeof lookup(client, e.name), e.name).toBe('function');
  });

  it('types path parameters, bodies and responses from the catalog', () => {
    expectTypeOf(client.ipPolicies.create).returns.resolves.toEqualTypeOf<IPPolicy>();
    expectTypeOf(client.ipPolicies.get).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.tlsEdges.backend.replace).returns.resolves.toEqualTypeOf<EndpointBackend>();
    expectTypeOf(client.httpsEdgeRoutes.get).parameters.toEqualTypeOf<
      [string, string, CallOptions?]
    >();
    expectTypeOf(client.httpsEdgeRoutes.get).returns.resolves.toEqualTypeOf<HTTPSEdgeRoute>();
    expectTypeOf(client.tunnelSessions.restart).returns.resolves.toBeUndefined();
    expectTypeOf(client.ipPolicies.listAll).returns.resolves.toEqualTypeOf<IPPolicy[]>();
    expectTypeOf(client.call<'tlsEdges.get'>).returns.resolves.toEqualTypeOf<TLSEdge>();
    expectTypeOf<Parameters<typeof client.call<'ipPolicies.delete'>>[1]>().toExtend<{
      readonly params: { readonly id: string };
    }>();
    // @ts-expect-error a required body may not be left out
    void (() => client.httpsEdgeRoutes.create('edghts_1'));
    // @ts-expect-error nor a path parameter
    void (() => client.call('ipPolicies.get', {}));
    const names: EndpointName[] = ['ipPolicies.list'];
    expect(names).toHaveLength(1);
  });
});

describe('the facade', () => {
  it('maps path parameters in path order, the body, then options', async () => {
    seen.length = 0;
    // The recorder answers 204, which these endpoints do not: only the requests matter here.
    const ignore = () => undefined;
    await client.httpsEdgeRoutes.webhook_verification
      .replace('edghts_1', 'edghtsrt_2', { provider: 'sns' })
      .catch(ignore);
    await client.ipPolicies.delete('ipp_9', { priority: 'background' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'PUT /api/edges/https/edghts_1/routes/edghtsrt_2/webhook_verification',
      'DELETE /api/ip_policies/ipp_9',
    ]);
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ provider: 'sns' });
  });

  it('sends the key, the version and, with a body only, its JSON content type', async () => {
    seen.length = 0;
    await client.tunnelSessions.restart('ts_1');
    await client.call('credentials.delete', { params: { id: 'cr_1' } });
    const [command, remove] = seen;
    expect(command?.headers).toMatchObject({
      authorization: 'Bearer secret-key',
      'service-version': '2',
      'content-type': 'application/json',
    });
    expect(command?.body).toBe('{}');
    expect(remove?.headers['content-type']).toBeUndefined();
    expect(remove?.headers['service-version']).toBe('2');
    expect(remove?.body).toBe('');
  });

  it('passes the list query', async () => {
    seen.length = 0;
    await expect(client.ipPolicies.list({ limit: 5, before_id: 'ipp_1' })).rejects.toThrow(
      /Unexpected answer/,
    );
    expect(seen[0]?.url).toBe('/api/ip_policies?limit=5&before_id=ipp_1');
  });

  it('refuses a missing path parameter, or one of the wrong kind, before any request', async () => {
    seen.length = 0;
    await expect(client.ipPolicies.get('')).rejects.toThrow(/path parameter "id" is missing/);
    await expect(client.httpsEdgeRoutes.delete('edghts_1', '..')).rejects.toThrow(
      'httpsEdgeRoutes.delete: path parameter "id" must be an id starting with "edghtsrt_"',
    );
    await expect(client.httpsEdgeRoutes.get('edghts_1', 'edghtsrt/../x')).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(client.ipPolicies.delete('.')).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      operation: 'ipPolicies.delete',
      field: 'id',
    });
    expect(seen).toHaveLength(0);
  });
});
