import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { ENDPOINTS } from '../../shared/api/catalog/endpoints.ts';
import { ERRORS } from '../../shared/api/errors/errors.ts';
import { idKindOf, type IdKind } from '../../shared/api/values/ids.ts';
import { checkedRequestBody } from '../../shared/api/catalog/path-echo.ts';
import { validateQuery, type ValidationError } from '../../shared/api/errors/validate.ts';
import type { Ctx, ListQuery } from '../resources/context.ts';
import { SandboxApiError, errorBody } from './sandbox-api-error.ts';
import {
  authenticate,
  bodyMayBeLeftOut,
  checkVersion,
  contentTypeProblem,
  hasBody,
  parseJsonBody,
  parseQuery,
} from './checks.ts';
import { OPERATION_ID_HEADER } from './operations.ts';
import { PersistError } from '../store/transactions.ts';
import { createRouter } from './router.ts';
import { addOwnerRoute } from './owner-route.ts';
import { addSandboxRoutes } from './sandbox-routes.ts';
import { unsetValuesOut } from './unset-values.ts';
import { JSON_TYPE, sendError, sendJson, type RequestState } from './reply.ts';
import type { ServerDeps } from './server-deps.ts';

/** Bodies above this are refused (322) before they are read whole. */
const BODY_LIMIT = 1024 * 1024;

function validationError(error: ValidationError): SandboxApiError {
  return new SandboxApiError(
    error.name,
    error.msg,
    error.field !== undefined ? { field: error.field } : {},
  );
}

function pathOf(url: string): { path: string; search: string } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, search: '' } : { path: url.slice(0, q), search: url.slice(q + 1) };
}

/**
 * The API server. Every request goes through the same checks, in this order, each answering with
 * its own code: injected faults → auth (200/201/203/206) → Service-Version (218/217) → rate
 * limit (226) → route (302 unknown path, 303 method with `Allow`) → path ids (222) → body framing
 * (323 body where none is taken; 213 none where one is needed, a command's reading as `{}`;
 * 216/210 Content-Type) → body size (322) → query (231/233/321) → JSON (213) → what only says
 * "unset" taken out (unset-values.ts) → body schema (214/215/300/…) → the resource's rules.
 */
export function createServer(deps: ServerDeps): FastifyInstance {
  const { services, faults, operations, log } = deps;
  const route = createRouter(ENDPOINTS);

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: false,
    exposeHeadRoutes: false,
    return503OnClosing: false,
    forceCloseConnections: true,
    // Node answers requests it cannot parse at all; the answer still takes the API's shape.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (!socket.writable || error.code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const operationId = operations.newId();
      const message = `malformed HTTP request: ${error.code ?? 'parse error'}`;
      const body = JSON.stringify(
        errorBody(new SandboxApiError('malformedRequest', message), operationId),
      );
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: ${JSON_TYPE}\r\n${OPERATION_ID_HEADER}: ${operationId}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // A path that cannot be percent-decoded never reaches the router or the hooks.
    frameworkErrors: (error, request, reply) => {
      request.sandbox ??= newState();
      reply.header(OPERATION_ID_HEADER, request.sandbox.operationId);
      return sendError(
        request,
        reply,
        new SandboxApiError(
          'unknownPath',
          `the path is not valid percent-encoding: ${error.message}`,
        ),
      );
    },
  });

  const newState = (): RequestState => ({
    operationId: operations.newId(),
    account: null,
    errorCode: null,
    admitted: undefined,
  });

  app.decorateRequest('sandbox', undefined as unknown as RequestState);
  app.removeAllContentTypeParsers();
  // Content-Type is checked by the pipeline; the body is read raw and parsed there.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.addHook('onRequest', async (request, reply) => {
    request.sandbox = newState();
    reply.header(OPERATION_ID_HEADER, request.sandbox.operationId);
  });

  app.addHook('onResponse', async (request, reply) => {
    const state = request.sandbox;
    operations.record({
      operation_id: state.operationId,
      at: new Date().toISOString(),
      method: request.method,
      path: pathOf(request.url).path,
      status: reply.statusCode,
      error_code: state.errorCode,
      account: state.account,
    });
  });

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    request.sandbox ??= newState();
    if (error instanceof SandboxApiError) return sendError(request, reply, error);
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(
          request,
          reply,
          new SandboxApiError('bodyTooLarge', `the body exceeds ${BODY_LIMIT} bytes`),
        );
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(
          request,
          reply,
          new SandboxApiError('invalidJsonBody', 'the body does not match its Content-Length'),
        );
    }
    // Fastify's other client errors are all about reading the body.
    if (error.statusCode !== undefined && error.statusCode < 500)
      return sendError(request, reply, new SandboxApiError('invalidJsonBody', error.message));
    log(
      `internal error in ${request.method} ${request.url} (${request.sandbox.operationId}): ${error.stack ?? error.message}`,
    );
    return sendError(
      request,
      reply,
      new SandboxApiError(
        'internalError',
        'internal error; the operation id finds it in the sandbox log',
      ),
    );
  });

  /** Applies the injected faults of this request; true when one answered (or dropped) it. */
  async function injectFault(
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
  ): Promise<boolean> {
    const { delayMs, answer } = faults.take(request.method, path);
    if (delayMs > 0) await sleep(delayMs);
    if (!answer) return false;
    switch (answer.kind) {
      case 'drop':
        reply.hijack();
        request.raw.socket.destroy();
        return true;
      case 'rateLimit':
        if (answer.retryAfterSeconds !== undefined)
          reply.header('retry-after', String(answer.retryAfterSeconds));
        sendError(
          request,
          reply,
          new SandboxApiError('rateLimited', 'rate limit exceeded (injected fault)'),
        );
        return true;
      default: {
        const status = answer.status ?? ERRORS.injectedFault.status;
        sendError(
          request,
          reply,
          new SandboxApiError('injectedFault', `injected fault: HTTP ${status}`, {}, status),
        );
        return true;
      }
    }
  }

  /** Every check that needs no body; answers and returns false at the first that fails. */
  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const state = request.sandbox;
    const { path } = pathOf(request.url);
    if (await injectFault(request, reply, path)) return false;
    const fail = (error: SandboxApiError) => (sendError(request, reply, error), false);

    const caller = authenticate(request.headers.authorization, services.store);
    if (caller instanceof SandboxApiError) return fail(caller);
    state.account = caller.account.name;
    const version = checkVersion(header(request, 'service-version'));
    if (version) return fail(version);
    const waitMs = deps.rateLimiter?.take(caller.account.name);
    if (waitMs !== undefined) {
      if (deps.retryAfter)
        reply.header('retry-after', String(Math.max(1, Math.ceil(waitMs / 1000))));
      return fail(
        new SandboxApiError(
          'rateLimited',
          'rate limit exceeded: too many requests for this account; retry later',
        ),
      );
    }

    const match = route(request.method, path);
    if (match.kind === 'unknownPath')
      return fail(new SandboxApiError('unknownPath', `no such path: ${path}`));
    if (match.kind === 'methodNotAllowed') {
      reply.header('allow', match.allow.join(', '));
      return fail(
        new SandboxApiError(
          'methodNotAllowed',
          `${request.method} is not allowed here; allowed: ${match.allow.join(', ')}`,
        ),
      );
    }
    const { endpoint, params } = match;
    for (const [name, kind] of Object.entries(
      endpoint.pathParams as Readonly<Record<string, IdKind>>,
    )) {
      const value = params[name] ?? '';
      if (idKindOf(value) !== kind)
        return fail(
          new SandboxApiError('malformedPathId', `"${value}" is not a well-formed ${kind} id`, {
            field: name,
          }),
        );
    }

    const bodySent = hasBody(request.headers);
    if (endpoint.body === null) {
      if (bodySent)
        return fail(
          new SandboxApiError(
            'bodyNotAllowed',
            `${endpoint.method} ${endpoint.path} takes no body`,
          ),
        );
    } else if (bodySent) {
      const problem = contentTypeProblem(request.headers['content-type']);
      if (problem)
        return fail(
          new SandboxApiError(
            problem,
            problem === 'missingContentType'
              ? 'a body needs "Content-Type: application/json"'
              : `Content-Type "${request.headers['content-type']}" is not supported; send application/json`,
          ),
        );
    } else if (!bodyMayBeLeftOut(endpoint))
      return fail(new SandboxApiError('invalidJsonBody', 'the body must be a JSON object'));
    state.admitted = { endpoint, params, caller };
    return true;
  }

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const admitted = request.sandbox.admitted;
    if (!admitted) throw new Error('handler reached without admission');
    const { endpoint, params, caller } = admitted;
    const search = pathOf(request.url).search;
    const rawQuery = parseQuery(search);
    let query: ListQuery = { limit: 100 };
    if (endpoint.query === null) {
      const [unknown] = Object.keys(rawQuery);
      if (unknown !== undefined)
        throw new SandboxApiError('unknownQueryParameter', `unknown query parameter "${unknown}"`, {
          field: unknown,
        });
    } else {
      const checked = validateQuery(endpoint.query, rawQuery);
      if (!checked.ok) throw validationError(checked.error);
      query = checked.value as ListQuery;
    }
    let body: unknown;
    if (endpoint.body !== null) {
      const sent = hasBody(request.headers) ? parseJsonBody(request.body) : {};
      const checked = checkedRequestBody(endpoint, params, unsetValuesOut(endpoint, sent));
      if (!checked.ok) throw validationError(checked.error);
      body = checked.value;
    }
    const ctx: Ctx = {
      account: caller.account,
      user: caller.user,
      base: deps.baseUrl(request.headers.host),
      params,
      query,
      body,
      services,
    };
    const handler = deps.handlers[endpoint.name];
    const result =
      endpoint.method === 'GET'
        ? await handler(ctx)
        : await services.store
            .write(() => handler(ctx))
            .catch((error: unknown) => {
              if (error instanceof PersistError)
                throw new SandboxApiError('internalError', error.message);
              throw error;
            });
    return sendJson(reply, endpoint.status, result);
  }

  addSandboxRoutes(app, deps);
  if (deps.ownerSecret !== undefined) addOwnerRoute(app, deps.ownerSecret);

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
    url: '*',
    onRequest: async (request, reply) => {
      if (!(await admit(request, reply))) return reply;
    },
    handler: handle,
  });
  // Methods no route is registered for (PROPFIND, …) still get the API's answer.
  app.setNotFoundHandler(async (request, reply) => {
    if (!(await admit(request, reply))) return reply;
    return handle(request, reply);
  });
  return app;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
