import type {
  AbuseReportHostname,
  ABUSE_REPORT_STATUSES,
} from '../../shared/api/kinds/abuse-reports.ts';
import type {
  EndpointOAuthMutate,
  EndpointOIDCMutate,
  EndpointSAMLMutate,
} from '../../shared/api/kinds/auth-modules.ts';
import type {
  EndpointBackendMutate,
  EndpointIPPolicyMutate,
  EndpointMutualTLSMutate,
  TERMINATE_AT,
  TLS_VERSIONS,
} from '../../shared/api/kinds/edge-modules.ts';
import type { MATCH_TYPES } from '../../shared/api/kinds/https-edge-routes.ts';
import type { IPPolicyRuleAction } from '../../shared/api/kinds/ip-policy-rules.ts';
import type {
  EndpointCircuitBreakerMutate,
  EndpointCompressionMutate,
  EndpointRequestHeadersMutate,
  EndpointResponseHeadersMutate,
  EndpointWebsocketTCPConverterMutate,
} from '../../shared/api/kinds/route-modules.ts';
import type { SshKeyType } from '../../shared/api/values/ssh-keys.ts';
import type { z } from 'zod';

/**
 * What the store keeps of each resource: its representation without `uri`, with references as
 * ids (rendered as Refs on the way out) and modules in their normalized write form, plus the
 * secrets no response shows (a CA's private key, a token's hash).
 */
export type Described = {
  readonly id: string;
  readonly created_at: string;
  readonly description?: string | undefined;
  readonly metadata?: string | undefined;
};

export type IPPolicyRecord = Described;

export type IPPolicyRuleRecord = Described & {
  /** As the caller wrote it, host bits included. */
  readonly cidr: string;
  readonly action: IPPolicyRuleAction;
  readonly ip_policy_id: string;
};

export type SSHCertificateAuthorityRecord = Described & {
  readonly key_type: SshKeyType;
  readonly public_key: string;
  /** PKCS#8 PEM; never rendered. */
  readonly private_key: string;
};

type CertificateRecord = Described & {
  readonly public_key: string;
  readonly key_type: SshKeyType;
  readonly ssh_certificate_authority_id: string;
  readonly principals: readonly string[];
  readonly valid_after: string;
  readonly valid_until: string;
  readonly certificate: string;
};
export type SSHUserCertificateRecord = CertificateRecord & {
  readonly critical_options: Readonly<Record<string, string>>;
  readonly extensions: Readonly<Record<string, string>>;
};
export type SSHHostCertificateRecord = CertificateRecord;

type CredentialFields = { readonly acl: readonly string[]; readonly owner_id: string };
export type SSHCredentialRecord = Described & CredentialFields & { readonly public_key: string };
export type CredentialRecord = Described &
  CredentialFields & {
    /** SHA-256 of the token, hex; the token itself is shown once and never stored. */
    readonly token_hash: string;
  };

export type AgentIngressRecord = Described & {
  readonly domain: string;
  readonly ns_targets: readonly string[];
  readonly region_domains: readonly string[];
};

export type FailoverBackendRecord = Described & { readonly backends: readonly string[] };
export type HTTPResponseBackendRecord = Described & {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly status_code: number;
};
export type TunnelGroupBackendRecord = Described & {
  readonly labels: Readonly<Record<string, string>>;
};

export type CertificateAuthorityRecord = Described & {
  readonly ca_pem: string;
  readonly subject_common_name: string;
  readonly not_before: string;
  readonly not_after: string;
  readonly key_usages: readonly string[];
  readonly extended_key_usages: readonly string[];
};

export type BackendModule = z.output<typeof EndpointBackendMutate>;
export type IPRestrictionModule = z.output<typeof EndpointIPPolicyMutate>;
export type MutualTLSModule = z.output<typeof EndpointMutualTLSMutate>;
/** min_version is resolved on write: the default when terminating at the edge, null upstream. */
export type TLSTerminationModule = {
  readonly enabled: boolean;
  readonly terminate_at: (typeof TERMINATE_AT)[number];
  readonly min_version: (typeof TLS_VERSIONS)[number] | null;
};

export type TLSEdgeRecord = Described & {
  readonly hostports: readonly string[];
  readonly backend: BackendModule | null;
  readonly ip_restriction: IPRestrictionModule | null;
  readonly mutual_tls: MutualTLSModule | null;
  readonly tls_termination: TLSTerminationModule | null;
};

export type HTTPSEdgeRecord = Described & {
  readonly hostports: readonly string[];
  readonly mutual_tls: MutualTLSModule | null;
  /** terminate_at is always "edge" on HTTPS edges and not rendered. */
  readonly tls_termination: TLSTerminationModule | null;
  /** Oldest first. */
  readonly route_ids: readonly string[];
};

export type WebhookVerificationModule = {
  readonly enabled: boolean;
  readonly provider: string;
  readonly secret: string;
};

export type RouteModules = {
  readonly backend: BackendModule | null;
  readonly ip_restriction: IPRestrictionModule | null;
  readonly circuit_breaker: z.output<typeof EndpointCircuitBreakerMutate> | null;
  readonly compression: z.output<typeof EndpointCompressionMutate> | null;
  readonly request_headers: z.output<typeof EndpointRequestHeadersMutate> | null;
  readonly response_headers: z.output<typeof EndpointResponseHeadersMutate> | null;
  readonly webhook_verification: WebhookVerificationModule | null;
  readonly oauth: z.output<typeof EndpointOAuthMutate> | null;
  readonly saml: z.output<typeof EndpointSAMLMutate> | null;
  readonly oidc: z.output<typeof EndpointOIDCMutate> | null;
  readonly websocket_tcp_converter: z.output<typeof EndpointWebsocketTCPConverterMutate> | null;
};

export type HTTPSEdgeRouteRecord = Described &
  RouteModules & {
    readonly edge_id: string;
    readonly match_type: (typeof MATCH_TYPES)[number];
    readonly match: string;
  };

export type AbuseReportRecord = {
  readonly id: string;
  readonly created_at: string;
  readonly metadata?: string | undefined;
  readonly urls: readonly string[];
  readonly status: (typeof ABUSE_REPORT_STATUSES)[number];
  readonly hostnames: readonly AbuseReportHostname[];
};

/** The kinds the store keeps, and what it keeps of each. Sessions live in the SessionRegistry. */
export type RecordOf = {
  ipPolicy: IPPolicyRecord;
  ipPolicyRule: IPPolicyRuleRecord;
  sshCertificateAuthority: SSHCertificateAuthorityRecord;
  sshUserCertificate: SSHUserCertificateRecord;
  sshHostCertificate: SSHHostCertificateRecord;
  sshCredential: SSHCredentialRecord;
  credential: CredentialRecord;
  agentIngress: AgentIngressRecord;
  failoverBackend: FailoverBackendRecord;
  httpResponseBackend: HTTPResponseBackendRecord;
  tunnelGroupBackend: TunnelGroupBackendRecord;
  certificateAuthority: CertificateAuthorityRecord;
  tlsEdge: TLSEdgeRecord;
  httpsEdge: HTTPSEdgeRecord;
  httpsEdgeRoute: HTTPSEdgeRouteRecord;
  abuseReport: AbuseReportRecord;
};
export type StoredKind = keyof RecordOf;

export const STORED_KINDS = [
  'ipPolicy',
  'ipPolicyRule',
  'sshCertificateAuthority',
  'sshUserCertificate',
  'sshHostCertificate',
  'sshCredential',
  'credential',
  'agentIngress',
  'failoverBackend',
  'httpResponseBackend',
  'tunnelGroupBackend',
  'certificateAuthority',
  'tlsEdge',
  'httpsEdge',
  'httpsEdgeRoute',
  'abuseReport',
] as const satisfies readonly StoredKind[];
