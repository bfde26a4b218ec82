import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { idKindOf } from '../../shared/api/values/ids.ts';
import { parseFaultRule } from '../faults/faults.ts';
import { SandboxApiError } from './sandbox-api-error.ts';
import { authenticate, contentTypeProblem, parseJsonBody } from './checks.ts';
import type { ServerDeps } from './server-deps.ts';
import { sendError, sendJson } from './reply.ts';

/**
 * The sandbox's own endpoints, outside the API: its OpenAPI document (public), fault injection
 * and the operation log (any admin API key; no Service-Version; not rate limited; never faulted).
 */
export function addSandboxRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { services, faults, operations } = deps;

  /** The admin caller, or an answer already sent. */
  function admin(request: FastifyRequest, reply: FastifyReply) {
    const caller = authenticate(request.headers.authorization, services.store);
    if (caller instanceof SandboxApiError) return void sendError(request, reply, caller);
    request.sandbox.account = caller.account.name;
    if (!caller.user.admin)
      return void sendError(
        request,
        reply,
        new SandboxApiError('unknownApiKey', 'the /_sandbox endpoints need an admin API key'),
      );
    return caller;
  }

  app.get('/openapi.json', (request, reply) =>
    sendJson(reply, 200, deps.openapi(deps.baseUrl(request.headers.host))),
  );

  app.get('/_sandbox/faults', (request, reply) => {
    if (!admin(request, reply)) return reply;
    return sendJson(reply, 200, { faults: faults.list() });
  });

  app.post('/_sandbox/faults', (request, reply) => {
    if (!admin(request, reply)) return reply;
    const problem = contentTypeProblem(request.headers['content-type']);
    if (problem)
      return sendError(
        request,
        reply,
        new SandboxApiError(problem, 'send the rule as application/json'),
      );
    try {
      faults.add(parseFaultRule(parseJsonBody(request.body)));
    } catch (error) {
      if (error instanceof SandboxApiError) return sendError(request, reply, error);
      return sendError(
        request,
        reply,
        new SandboxApiError('invalidValue', (error as Error).message),
      );
    }
    return sendJson(reply, 201, { faults: faults.list() });
  });

  app.delete('/_sandbox/faults', (request, reply) => {
    if (!admin(request, reply)) return reply;
    faults.clear();
    return sendJson(reply, 204, undefined);
  });

  app.get<{ Params: { id: string } }>('/_sandbox/operations/:id', (request, reply) => {
    const caller = admin(request, reply);
    if (!caller) return reply;
    const id = request.params.id;
    if (idKindOf(id) !== 'operation')
      return sendError(
        request,
        reply,
        new SandboxApiError('malformedPathId', `"${id}" is not an operation id`),
      );
    const op = operations.get(id);
    // Another account's operations are as absent as its resources.
    if (!op || (op.account !== null && op.account !== caller.account.name))
      return sendError(
        request,
        reply,
        new SandboxApiError('notFound', `no recent operation "${id}"`),
      );
    return sendJson(reply, 200, op);
  });
}
