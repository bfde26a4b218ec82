import { z } from 'zod';
import { describedFields, resourceFields } from '../values/common.ts';
import {
  EndpointMutualTLS,
  EndpointMutualTLSMutate,
  EndpointTLSTermination,
  EndpointTLSTerminationMutate,
  moduleBlockedByUpstreamTermination,
  TRAFFIC_MODULES,
} from './edge-modules.ts';
import { Hostport } from '../values/hosts.ts';
import { readModuleFields, writeModuleFields } from './module-forms.ts';
import { flag } from '../errors/rules.ts';

export const TLS_EDGE_MODULES = {
  ...TRAFFIC_MODULES,
  mutual_tls: { read: EndpointMutualTLS, write: EndpointMutualTLSMutate },
  tls_termination: { read: EndpointTLSTermination, write: EndpointTLSTerminationMutate },
} as const;

export const TLSEdge = z.looseObject({
  ...resourceFields('tlsEdge'),
  hostports: z.array(z.string()),
  ...readModuleFields(TLS_EDGE_MODULES),
});
export type TLSEdge = z.output<typeof TLSEdge>;

/**
 * Create and update take the same fields, all optional (no hostports: an empty list). A module
 * named in an update replaces the stored one whole; one left out stays.
 */
export const TLSEdgeCreate = z
  .strictObject({
    ...describedFields,
    hostports: z.array(Hostport).optional(),
    ...writeModuleFields(TLS_EDGE_MODULES),
  })
  .superRefine((edge, ctx) => {
    const blocked = moduleBlockedByUpstreamTermination(edge);
    if (blocked)
      flag(
        ctx,
        [blocked],
        'is not allowed when "tls_termination.terminate_at" is "upstream"',
        'moduleNeedsEdgeTermination',
      );
  });
export type TLSEdgeCreate = z.input<typeof TLSEdgeCreate>;

export const TLSEdgeUpdate = TLSEdgeCreate;
export type TLSEdgeUpdate = z.input<typeof TLSEdgeUpdate>;
