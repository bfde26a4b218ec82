import { z } from 'zod';
import { describedFields, resourceFields } from '../values/common.ts';
import {
  EndpointMutualTLS,
  EndpointMutualTLSMutate,
  EndpointTLSTerminationAtEdge,
  EndpointTLSTerminationAtEdgeMutate,
} from './edge-modules.ts';
import { Hostport } from '../values/hosts.ts';
import { HTTPSEdgeRoute } from './https-edge-routes.ts';
import { readModuleFields, writeModuleFields } from './module-forms.ts';

export const HTTPS_EDGE_MODULES = {
  mutual_tls: { read: EndpointMutualTLS, write: EndpointMutualTLSMutate },
  tls_termination: {
    read: EndpointTLSTerminationAtEdge,
    write: EndpointTLSTerminationAtEdgeMutate,
  },
} as const;

/** Routes come oldest first. */
export const HTTPSEdge = z.looseObject({
  ...resourceFields('httpsEdge'),
  hostports: z.array(z.string()),
  ...readModuleFields(HTTPS_EDGE_MODULES),
  routes: z.array(HTTPSEdgeRoute),
});
export type HTTPSEdge = z.output<typeof HTTPSEdge>;

/** Create and update take the same fields; routes have endpoints of their own. */
export const HTTPSEdgeCreate = z.strictObject({
  ...describedFields,
  hostports: z.array(Hostport).optional(),
  ...writeModuleFields(HTTPS_EDGE_MODULES),
});
export type HTTPSEdgeCreate = z.input<typeof HTTPSEdgeCreate>;

export const HTTPSEdgeUpdate = HTTPSEdgeCreate;
export type HTTPSEdgeUpdate = z.input<typeof HTTPSEdgeUpdate>;
