import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/api/catalog/endpoints.ts';
import { echoedPathParams } from '../../../shared/api/catalog/path-echo.ts';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'k' });
});
afterAll(() => sandbox.close());

type Operation = {
  operationId: string;
  parameters: { name?: string; in?: string; $ref?: string }[];
  requestBody?: {
    required: boolean;
    content: Record<string, { schema: { properties?: Record<string, { type?: string }> } }>;
  };
  responses: Record<string, { content?: Record<string, { schema: object }>; $ref?: string }>;
};

type Doc = {
  openapi: string;
  servers: unknown;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, { required?: string[] }>;
  };
  paths: Record<string, Record<string, Operation>>;
};

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document of every catalog operation, served without a key', async () => {
    const response = await fetch(`${sandbox.url}/openapi.json`);
    expect(response.headers.get('content-type')).toContain('application/json');
    const doc = (await response.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: sandbox.url }]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas['ErrorBody']?.required).toEqual(
      expect.arrayContaining(['error_code', 'status_code', 'msg', 'details']),
    );
    for (const e of ENDPOINTS) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()] as Operation;
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op.operationId).toBe(e.name);
      expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/ServiceVersion' });
      for (const name of Object.keys(e.pathParams))
        expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'path' }));
      expect(Boolean(op.requestBody)).toBe(e.body !== null);
      // Only the session commands' body (the empty object) may be left out.
      if (op.requestBody)
        expect(op.requestBody.required, e.name).toBe(!e.name.startsWith('tunnelSessions.'));
      for (const name of echoedPathParams(e))
        expect(
          op.requestBody?.content['application/json']?.schema.properties?.[name],
          `${e.name} documents ${name} in its body`,
        ).toMatchObject({ type: 'string' });
      expect(op.responses[String(e.status)]).toBeDefined();
      expect(Boolean(op.responses[String(e.status)]?.content)).toBe(e.response !== null);
      expect(op.responses['default']).toEqual({ $ref: '#/components/responses/Error' });
      if (e.query)
        expect(op.parameters.map((p) => p.name)).toEqual(
          expect.arrayContaining(['limit', 'before_id']),
        );
    }
    const operations = Object.values(doc.paths).flatMap((p) => Object.keys(p as object));
    expect(operations).toHaveLength(ENDPOINTS.length);
  });
});

describe('a module replace in the document', () => {
  it('takes the module alone or wrapped in "module" beside the path ids', async () => {
    const doc = (await (await fetch(`${sandbox.url}/openapi.json`)).json()) as Doc;
    for (const e of ENDPOINTS.filter((x) => x.method === 'PUT')) {
      const schema = doc.paths[e.path]?.['put']?.requestBody?.content['application/json']
        ?.schema as { oneOf?: Record<string, unknown>[] };
      const [bare, wrapped] = schema.oneOf ?? [];
      expect(JSON.stringify(bare), `${e.name}: nothing that breaks when nested`).not.toMatch(
        /"\$(ref|defs)"/,
      );
      expect(wrapped, e.name).toMatchObject({
        required: ['module'],
        additionalProperties: false,
        properties: {
          module: bare,
          ...Object.fromEntries(Object.keys(e.pathParams).map((p) => [p, { type: 'string' }])),
        },
      });
    }
  });
});
