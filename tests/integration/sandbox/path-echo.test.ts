/**
 * The official client libraries repeat a resource's path parameters in the body (`id` in every
 * update, `edge_id` in a route's create and update). Every endpoint the catalog says takes such
 * copies answers with one equal to the path as it does without, and refuses any other value with
 * 215 naming the field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/api/catalog/endpoints.ts';
import { ID_PREFIXES, type IdKind } from '../../../shared/api/values/ids.ts';
import { echoedPathParams } from '../../../shared/api/catalog/path-echo.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { exampleBody, moduleExample, type Refs } from './blackbox/examples.ts';
import { Factory, fillPath } from './blackbox/factory.ts';
import { expectError, sandboxForFile } from './support.ts';

const suite = sandboxForFile();
let factory: Factory;
let refs: Refs;

beforeAll(async () => {
  factory = new Factory(apiCaller(suite.sandbox.url, 'alice-key-1'));
  refs = await factory.init();
});

const ECHOING = ENDPOINTS.filter((e) => echoedPathParams(e).length > 0);

/** What a representation holds apart from what differs between two writes of the same body. */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, uri: _uri, created_at: _created, match: _match, ...rest } = body;
  return rest;
}

describe('path parameters echoed in the body', () => {
  it('are taken by every update and by route creates, and by nothing else', () => {
    expect(ECHOING.map((e) => e.name).sort()).toEqual(
      ENDPOINTS.filter((e) => e.method === 'PATCH' || e.name === 'httpsEdgeRoutes.create')
        .map((e) => e.name)
        .sort(),
    );
  });

  it.each(ECHOING.map((e) => [e.name, e] as const))(
    '%s: a copy equal to the path is as if absent; another value is 215 naming it',
    async (_name, e) => {
      const params = await factory.paramsFor(e);
      const path = fillPath(e.path, params);
      const echoes = Object.fromEntries(echoedPathParams(e).map((p) => [p, params[p]]));

      const body = exampleBody(e.name, refs);
      // A second create needs a body of its own (a route's match is unique on its edge).
      const again = e.status === 201 ? exampleBody(e.name, refs) : body;
      const without = await factory.call(e.method, path, body);
      const withEcho = await factory.call(e.method, path, { ...again, ...echoes });
      expect(without.status).toBe(e.status);
      expect(withEcho.status, JSON.stringify(withEcho.body)).toBe(e.status);
      expect(stable(withEcho.body)).toEqual(stable(without.body));

      for (const [param, kind] of Object.entries(e.pathParams as Record<string, IdKind>)) {
        if (!(param in echoes)) continue;
        for (const wrong of [`${ID_PREFIXES[kind]}SomeOtherId`, 42, null, [params[param]]]) {
          const reply = await factory.call(e.method, path, { ...body, ...echoes, [param]: wrong });
          expectError(reply, 'invalidValue');
          expect(reply.body.details.field).toBe(param);
        }
      }
    },
  );

  it('stay unknown fields where no path parameter is repeated', async () => {
    const policy = await factory.make('ipPolicy');
    expectError(await factory.call('POST', '/ip_policies', { id: policy }), 'unknownField');
    const edge = await factory.make('tlsEdge');
    expectError(
      await factory.call('PUT', `/edges/tls/${edge}/backend`, {
        ...moduleExample('backend', refs),
        id: edge,
      }),
      'unknownField',
    );
  });
});

const REPLACES = ENDPOINTS.filter((e) => e.name.endsWith('.replace'));

/**
 * The official TypeScript client sends a module replace as the path ids beside the module wrapped
 * in `module` (`{"edge_id": …, "id": …, "module": {…}}`); other official clients send the module's
 * fields alone, as the spec shows. Both are one replace.
 */
describe('a module replace wrapped in "module"', () => {
  it('covers every module replace (each PUT) of edges and routes', () => {
    expect(REPLACES).toEqual(ENDPOINTS.filter((e) => e.method === 'PUT'));
    expect(new Set(REPLACES.map((e) => e.name.split('.')[0]))).toEqual(
      new Set(['tlsEdges', 'httpsEdges', 'httpsEdgeRoutes']),
    );
  });

  it.each(REPLACES.map((e) => [e.name, e] as const))(
    '%s: wrapped, with or without the path ids, as bare; a wrong id is 215 naming it',
    async (_name, e) => {
      const params = await factory.paramsFor(e);
      const path = fillPath(e.path, params);
      const module = exampleBody(e.name, refs);

      const bare = await factory.call('PUT', path, module);
      expect(bare.status, JSON.stringify(bare.body)).toBe(200);
      for (const wrapped of [{ ...params, module }, { module }]) {
        const reply = await factory.call('PUT', path, wrapped);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        expect(reply.body).toEqual(bare.body);
      }
      const read = await factory.call('GET', path);
      expect(read.body).toEqual(bare.body);

      for (const [param, kind] of Object.entries(e.pathParams as Record<string, IdKind>)) {
        for (const wrong of [`${ID_PREFIXES[kind]}SomeOtherId`, 42, null]) {
          const reply = await factory.call('PUT', path, { ...params, [param]: wrong, module });
          expectError(reply, 'invalidValue');
          expect(reply.body.details.field).toBe(param);
        }
      }
    },
  );

  it('refuses "module" beside other fields, and a "module" that is not an object, naming the field', async () => {
    const route = await factory.route();
    const path = `/edges/https/${route.edge_id}/routes/${route.id}/request_headers`;
    const module = { enabled: true, add: { 'x-a': '1' } };

    const beside = await factory.call('PUT', path, { ...route, module, enabled: false });
    expectError(beside, 'unknownField');
    expect(beside.body.details.field).toBe('enabled');
    expect(beside.body.msg).toMatch(/"module"/);

    for (const notObject of [null, 'x', [module]]) {
      const reply = await factory.call('PUT', path, { module: notObject });
      expectError(reply, 'invalidValue');
      expect(reply.body.details.field).toBe('module');
    }
    expect((await factory.call('GET', path)).status).toBe(404);
  });

  it('names a wrapped field by its place in the body', async () => {
    const route = await factory.route();
    const path = `/edges/https/${route.edge_id}/routes/${route.id}/oidc`;
    const reply = await factory.call('PUT', path, { ...route, module: { client_id: 'c' } });
    expectError(reply, 'missingField');
    expect(reply.body.details.field).toBe('module.issuer');
    const nested = await factory.call('PUT', path, { module: { enabled: 'yes' } });
    expect(nested.body.details.field).toBe('module.enabled');
  });
});
