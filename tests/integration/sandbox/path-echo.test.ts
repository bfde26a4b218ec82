/**
 * The official client libraries repeat a resource's path parameters in the body (`id` in every
 * update, `edge_id` in a route's create and update). Every endpoint the catalog says takes such
 * copies answers with one equal to the path as it does without, and refuses any other value with
 * 215 naming the field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  echoedPathParams,
  ENDPOINTS,
  ID_PREFIXES,
  type IdKind,
} from '../../../shared/api/index.ts';
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
