import { TunnelGroupBackendCreate } from '../../shared/api/kinds/backends.ts';
import { utf8ByteLength } from '../../shared/api/values/bytes.ts';
import { DESCRIPTION_MAX_BYTES } from '../../shared/api/values/common.ts';
import type { CredentialCreate } from '../../shared/api/kinds/credentials.ts';
import { HTTPSEdgeRouteCreate } from '../../shared/api/kinds/https-edge-routes.ts';
import { HTTPSEdgeCreate } from '../../shared/api/kinds/https-edges.ts';
import { validateBody } from '../../shared/api/errors/validate.ts';
import type { z } from 'zod';
import type { CheckedExposeRequest } from '../../shared/app/ipc/expose.ts';
import { AppError } from '../errors.ts';

/** The bodies of the flow's creates, each already checked with the API's own schema. */
export type ExposeBodies = {
  readonly backend: z.input<typeof TunnelGroupBackendCreate>;
  readonly edge: z.input<typeof HTTPSEdgeCreate>;
  /** The route without its backend, which exists only once the run made it. */
  readonly route: z.input<typeof HTTPSEdgeRouteCreate>;
  readonly credential: z.input<typeof CredentialCreate>;
  /** What the agent binds: `key=value` for each label. */
  readonly binds: readonly string[];
};

/** Every route serves the whole service: one prefix route at the root. */
export const ROUTE_MATCH = '/';

/**
 * Checks the request as the API would check each body it becomes, and refuses the first
 * problem with the API's code, naming the form's own field (`hostport`, not `hostports[0]`).
 */
export function exposeBodies(request: CheckedExposeRequest): ExposeBodies {
  const name = request.name.trim();
  if (name === '') throw new AppError('ERR_SERVICE_300', 'name: give the service a name', 'name');
  const binds = Object.entries(request.labels).map(([key, value]) => `${key}=${value}`);
  return {
    backend: check(TunnelGroupBackendCreate, { description: name, labels: request.labels }, (f) =>
      f.startsWith('description') ? 'name' : 'labels',
    ),
    edge: check(HTTPSEdgeCreate, { description: name, hostports: [request.hostport.trim()] }, (f) =>
      f.startsWith('hostports') ? 'hostport' : 'name',
    ),
    route: check(
      HTTPSEdgeRouteCreate,
      { match_type: 'path_prefix', match: ROUTE_MATCH, ...request.protection },
      (f) => `protection.${f}`,
    ),
    credential: { description: credentialDescription(name), acl: binds.map((b) => `bind:${b}`) },
    binds,
  };
}

/** Whom the credential is for; the name alone where the words would pass the API's limit. */
function credentialDescription(name: string): string {
  const words = `Agents serving ${name}`;
  return utf8ByteLength(words) <= DESCRIPTION_MAX_BYTES ? words : name;
}

function check<S extends z.ZodType>(
  schema: S,
  body: unknown,
  fieldOf: (apiField: string) => string,
): z.input<S> {
  const checked = validateBody(schema, body);
  // The checked body is sent as it was given: the API fills its own defaults.
  if (checked.ok) return body as z.input<S>;
  const { code, msg, field: apiField } = checked.error;
  const field = apiField === undefined ? undefined : fieldOf(apiField);
  // The API's message names its own field; the form's name of it leads, so one line says both.
  throw new AppError(code, field ? `${field}: ${msg}` : msg, field);
}
