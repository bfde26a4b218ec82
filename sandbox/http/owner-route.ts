import type { FastifyInstance } from 'fastify';
import { OWNER_PROOF_PATH, OWNER_TOKEN, ownerProof } from '../../shared/api/catalog/owner-proof.ts';
import { SandboxApiError } from './sandbox-api-error.ts';
import { sendError, sendJson } from './reply.ts';

/**
 * Answers the challenge of a process that found this sandbox's record (shared/api/catalog/owner-proof.ts),
 * outside the API: no key (it is what the answer protects), no faults, no rate limit.
 */
export function addOwnerRoute(app: FastifyInstance, secret: string): void {
  app.get<{ Querystring: Record<string, unknown> }>(OWNER_PROOF_PATH, async (request, reply) => {
    const { challenge } = request.query;
    if (typeof challenge !== 'string' || !OWNER_TOKEN.test(challenge))
      return sendError(
        request,
        reply,
        new SandboxApiError('invalidValue', 'challenge must be 64 lowercase hex digits', {
          field: 'challenge',
        }),
      );
    return sendJson(reply, 200, { proof: await ownerProof(secret, challenge) });
  });
}
