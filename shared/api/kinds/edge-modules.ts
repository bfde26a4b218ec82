import { z } from 'zod';
import { BackendId } from './backends.ts';
import { isSet, Ref } from '../values/common.ts';
import { idSchema } from '../values/ids.ts';
import { enabledRead, enabledWrite } from './module-forms.ts';
import { flag } from '../errors/rules.ts';

export const EndpointBackend = z.looseObject({ enabled: enabledRead, backend: Ref });
export type EndpointBackend = z.output<typeof EndpointBackend>;
export const EndpointBackendMutate = z.strictObject({
  enabled: enabledWrite,
  backend_id: BackendId,
});
export type EndpointBackendMutate = z.input<typeof EndpointBackendMutate>;

export const EndpointIPPolicy = z.looseObject({ enabled: enabledRead, ip_policies: z.array(Ref) });
export type EndpointIPPolicy = z.output<typeof EndpointIPPolicy>;
export const EndpointIPPolicyMutate = z.strictObject({
  enabled: enabledWrite,
  ip_policy_ids: z.array(idSchema('ipPolicy')).min(1),
});
export type EndpointIPPolicyMutate = z.input<typeof EndpointIPPolicyMutate>;

export const EndpointMutualTLS = z.looseObject({
  enabled: enabledRead,
  certificate_authorities: z.array(Ref),
});
export type EndpointMutualTLS = z.output<typeof EndpointMutualTLS>;
export const EndpointMutualTLSMutate = z.strictObject({
  enabled: enabledWrite,
  certificate_authority_ids: z.array(idSchema('certificateAuthority')).min(1),
});
export type EndpointMutualTLSMutate = z.input<typeof EndpointMutualTLSMutate>;

export const TLS_VERSIONS = ['1.0', '1.1', '1.2', '1.3'] as const;
export const TERMINATE_AT = ['edge', 'upstream'] as const;

/** null: the service picks an industry-safe minimum (and must, when TLS passes through). */
const MinVersion = z.enum(TLS_VERSIONS).nullable();
const TerminateAt = z.enum(TERMINATE_AT);

export const EndpointTLSTermination = z.looseObject({
  enabled: enabledRead,
  terminate_at: TerminateAt,
  min_version: MinVersion,
});
export type EndpointTLSTermination = z.output<typeof EndpointTLSTermination>;

const TLSTerminationWrite = z.strictObject({
  enabled: enabledWrite,
  terminate_at: TerminateAt.default('edge'),
  min_version: MinVersion.optional(),
});

export const EndpointTLSTerminationMutate = TLSTerminationWrite.superRefine((module, ctx) => {
  if (module.terminate_at === 'upstream' && isSet(module.min_version))
    flag(
      ctx,
      ['min_version'],
      'must be null when "terminate_at" is "upstream"',
      'minVersionWithUpstream',
    );
});
export type EndpointTLSTerminationMutate = z.input<typeof EndpointTLSTerminationMutate>;

/** HTTPS edges always terminate TLS at the edge; only the minimum version is theirs to set. */
export const EndpointTLSTerminationAtEdge = EndpointTLSTermination.omit({ terminate_at: true });
export type EndpointTLSTerminationAtEdge = z.output<typeof EndpointTLSTerminationAtEdge>;
export const EndpointTLSTerminationAtEdgeMutate = TLSTerminationWrite.omit({ terminate_at: true });
export type EndpointTLSTerminationAtEdgeMutate = z.input<typeof EndpointTLSTerminationAtEdgeMutate>;

/** Where traffic goes and who may send it: modules that TLS edges and routes alike take. */
export const TRAFFIC_MODULES = {
  backend: { read: EndpointBackend, write: EndpointBackendMutate },
  ip_restriction: { read: EndpointIPPolicy, write: EndpointIPPolicyMutate },
} as const;

/** The TLS-edge modules that need the decrypted traffic, hence TLS terminated at the edge. */
const MODULES_NEEDING_EDGE_TERMINATION = ['mutual_tls'] as const;

type Toggle = { readonly enabled: boolean } | null | undefined;
export type TerminationCheckedEdge = {
  readonly tls_termination?: { readonly enabled: boolean; readonly terminate_at: string } | null;
} & { readonly [M in (typeof MODULES_NEEDING_EDGE_TERMINATION)[number]]?: Toggle };

/**
 * The first enabled module that conflicts with an enabled upstream TLS termination, if any. The
 * server runs it on the merged edge after a PATCH or a module PUT; the edge bodies run it too.
 */
export function moduleBlockedByUpstreamTermination(
  edge: TerminationCheckedEdge,
): (typeof MODULES_NEEDING_EDGE_TERMINATION)[number] | undefined {
  const termination = edge.tls_termination;
  if (!termination?.enabled || termination.terminate_at !== 'upstream') return undefined;
  return MODULES_NEEDING_EDGE_TERMINATION.find((name) => edge[name]?.enabled);
}
