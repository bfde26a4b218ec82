import { z } from 'zod';
import { ENDPOINTS } from '../shared/api/catalog/endpoints.ts';
import { ErrorBody } from '../shared/api/errors/error-body.ts';
import { ERRORS } from '../shared/api/errors/errors.ts';
import { ID_PREFIXES, type IdKind } from '../shared/api/values/ids.ts';
import { LIST_LIMIT_MAX } from '../shared/api/catalog/list.ts';
import { echoedPathParams } from '../shared/api/catalog/path-echo.ts';
import { SERVICE_VERSION, SERVICE_VERSION_HEADER } from '../shared/api/catalog/version.ts';
import { bodyMayBeLeftOut } from './http/checks.ts';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Refinements and transforms have no JSON Schema; the document shows the shape around them.
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return json;
}

const idPattern = (kind: IdKind) => `^${ID_PREFIXES[kind]}[A-Za-z0-9]{1,64}$`;
/** The kind of a group's items, from its get endpoint. */
function itemKind(group: string): IdKind | undefined {
  const get = ENDPOINTS.find((e) => e.name === `${group}.get`);
  return get && (get.pathParams as Readonly<Record<string, IdKind>>)['id'];
}

const pathCopies = (names: readonly string[]): JsonSchema =>
  Object.fromEntries(
    names.map((name) => [
      name,
      { type: 'string', description: `The path's ${name} again (optional); must equal it.` },
    ]),
  );

/**
 * The body's schema, with the path parameters the body may repeat (`echoedPathParams`); a module
 * replace also takes the module wrapped in `module` beside the path's ids (`checkedRequestBody`).
 */
function requestSchema(e: (typeof ENDPOINTS)[number], body: z.ZodType): JsonSchema {
  const json = schemaOf(body, 'input');
  if (e.method === 'PUT')
    return {
      oneOf: [
        json,
        {
          type: 'object',
          description:
            "The module's fields wrapped in `module`, as some client libraries send them.",
          properties: { ...pathCopies(Object.keys(e.pathParams)), module: json },
          required: ['module'],
          additionalProperties: false,
        },
      ],
    };
  const echoed = echoedPathParams(e);
  if (echoed.length === 0) return json;
  return {
    ...json,
    properties: { ...(json['properties'] as JsonSchema), ...pathCopies(echoed) },
  };
}

function describeStatus(status: number): string {
  return status === 201 ? 'Created' : status === 204 ? 'No content' : 'OK';
}

/** Every error code with its status, so that a reader finds each condition in one place. */
function errorCodesDescription(): string {
  return Object.values(ERRORS)
    .map((e) => `- \`${e.code}\` (${e.status}): ${e.condition}`)
    .join('\n');
}

function buildDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of ENDPOINTS) {
    const parameters: unknown[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
    for (const [name, kind] of Object.entries(e.pathParams as Readonly<Record<string, IdKind>>))
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: idPattern(kind) },
      });
    if (e.query !== null) {
      const kind = itemKind(e.name.split('.')[0] ?? '');
      parameters.push(
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_MAX },
        },
        {
          name: 'before_id',
          in: 'query',
          required: false,
          description: 'Only items created before this one (the list is newest first).',
          schema: { type: 'string', ...(kind && { pattern: idPattern(kind) }) },
        },
      );
    }
    const responses: Record<string, unknown> = {
      [String(e.status)]: {
        description: describeStatus(e.status),
        ...(e.response && {
          content: { 'application/json': { schema: schemaOf(e.response, 'output') } },
        }),
      },
      default: { $ref: '#/components/responses/Error' },
    };
    // `{name}` in catalog paths is already OpenAPI's template syntax.
    (paths[e.path] ??= {})[e.method.toLowerCase()] = {
      operationId: e.name,
      parameters,
      ...(e.body && {
        requestBody: {
          required: !bodyMayBeLeftOut(e),
          content: { 'application/json': { schema: requestSchema(e, e.body) } },
        },
      }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tunnel and Edge Management API (Burrow sandbox)',
      version: SERVICE_VERSION,
      description: `Generated from the shared API model. Error codes:\n\n${errorCodesDescription()}`,
    },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key.' } },
      parameters: {
        ServiceVersion: {
          name: SERVICE_VERSION_HEADER,
          in: 'header',
          required: true,
          schema: { type: 'string', enum: [SERVICE_VERSION] },
        },
      },
      schemas: { ErrorBody: schemaOf(ErrorBody, 'output') },
      responses: {
        Error: {
          description: 'An error; `error_code` names the condition.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
      },
    },
  };
}

let document: JsonSchema | undefined;

/** The OpenAPI 3.1 document of the catalog, served from `base`. Built once, on first use. */
export function openapiDocument(base: string): JsonSchema {
  document ??= buildDocument();
  return { ...document, servers: [{ url: base }] };
}
