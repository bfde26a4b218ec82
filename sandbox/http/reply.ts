import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnyEndpoint } from '../../shared/api/catalog/endpoints.ts';
import type { Caller } from '../store/store.ts';
import { ERRORS } from '../../shared/api/errors/errors.ts';
import { errorBody, type SandboxApiError } from './sandbox-api-error.ts';

/** What the request pipeline learns about a request before its handler runs. */
export type RequestState = {
  readonly operationId: string;
  account: string | null;
  errorCode: string | null;
  admitted: { endpoint: AnyEndpoint; params: Record<string, string>; caller: Caller } | undefined;
};

declare module 'fastify' {
  interface FastifyRequest {
    sandbox: RequestState;
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: SandboxApiError,
): FastifyReply {
  const state = request.sandbox;
  state.errorCode = ERRORS[error.errorName].code;
  return reply
    .code(error.status)
    .header('content-type', JSON_TYPE)
    .send(JSON.stringify(errorBody(error, state.operationId)));
}

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  if (body === undefined) return reply.code(status).send();
  return reply.code(status).header('content-type', JSON_TYPE).send(JSON.stringify(body));
}
