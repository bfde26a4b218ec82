import type { z } from 'zod';
import {
  AgentIngressCreate,
  AgentIngressUpdate,
} from '../../../shared/api/kinds/agent-ingresses.ts';
import {
  FailoverBackendCreate,
  FailoverBackendUpdate,
  HTTPResponseBackendCreate,
  HTTPResponseBackendUpdate,
  TunnelGroupBackendCreate,
  TunnelGroupBackendUpdate,
} from '../../../shared/api/kinds/backends.ts';
import {
  CertificateAuthorityCreate,
  CertificateAuthorityUpdate,
} from '../../../shared/api/kinds/certificate-authorities.ts';
import {
  CredentialCreate,
  CredentialUpdate,
  SSHCredentialCreate,
  SSHCredentialUpdate,
} from '../../../shared/api/kinds/credentials.ts';
import {
  HTTPSEdgeRouteCreate,
  HTTPSEdgeRouteUpdate,
  ROUTE_MODULES,
} from '../../../shared/api/kinds/https-edge-routes.ts';
import {
  HTTPS_EDGE_MODULES,
  HTTPSEdgeCreate,
  HTTPSEdgeUpdate,
} from '../../../shared/api/kinds/https-edges.ts';
import { IPPolicyCreate, IPPolicyUpdate } from '../../../shared/api/kinds/ip-policies.ts';
import {
  IPPolicyRuleCreate,
  IPPolicyRuleUpdate,
} from '../../../shared/api/kinds/ip-policy-rules.ts';
import type { ModuleTable } from '../../../shared/api/kinds/module-forms.ts';
import {
  SSHCertificateAuthorityCreate,
  SSHCertificateAuthorityUpdate,
} from '../../../shared/api/kinds/ssh-certificate-authorities.ts';
import {
  TLS_EDGE_MODULES,
  TLSEdgeCreate,
  TLSEdgeUpdate,
} from '../../../shared/api/kinds/tls-edges.ts';
import type { SnapshotKind } from '../../../shared/app/snapshot-document.ts';

/** The API's group of each kind: `${group}.create`, `${group}.update`, `${group}.delete`. */
export type KindGroup =
  | 'ipPolicies'
  | 'ipPolicyRules'
  | 'certificateAuthorities'
  | 'sshCertificateAuthorities'
  | 'sshCredentials'
  | 'credentials'
  | 'agentIngresses'
  | 'httpResponseBackends'
  | 'tunnelGroupBackends'
  | 'failoverBackends'
  | 'tlsEdges'
  | 'httpsEdges'
  | 'httpsEdgeRoutes';

/** A representation as the API returns it, read loosely: the kind table says what to keep. */
export type Resource = Readonly<Record<string, unknown>> & { readonly id: string };

export type KindInfo = {
  readonly group: KindGroup;
  readonly create: z.ZodType;
  readonly update: z.ZodType;
  readonly modules: ModuleTable;
  /** The words a local name is made from, first non-empty wins. */
  readonly label: (resource: Resource) => readonly unknown[];
  /** Create fields a snapshot leaves out: they belong to one account. */
  readonly omit?: readonly string[];
  /**
   * References the representation holds as a Ref and the create form as an id: read field →
   * write field (`ip_policy: {id, uri}` → `ip_policy_id`). Modules' references are refsToIds'.
   */
  readonly refs?: Readonly<Record<string, string>>;
  /** The read field holding the id of the resource this one belongs to, whose name goes in front of its own. */
  readonly owner?: string;
};

const NO_MODULES: ModuleTable = {};
const described = (r: Resource) => [r['description']];

export const KINDS: { readonly [K in SnapshotKind]: KindInfo } = {
  ipPolicy: {
    group: 'ipPolicies',
    create: IPPolicyCreate,
    update: IPPolicyUpdate,
    modules: NO_MODULES,
    label: described,
  },
  ipPolicyRule: {
    group: 'ipPolicyRules',
    create: IPPolicyRuleCreate,
    update: IPPolicyRuleUpdate,
    modules: NO_MODULES,
    label: (r) => [r['description'], r['cidr']],
    refs: { ip_policy: 'ip_policy_id' },
    owner: 'ip_policy',
  },
  certificateAuthority: {
    group: 'certificateAuthorities',
    create: CertificateAuthorityCreate,
    update: CertificateAuthorityUpdate,
    modules: NO_MODULES,
    label: (r) => [r['description'], r['subject_common_name']],
  },
  sshCertificateAuthority: {
    group: 'sshCertificateAuthorities',
    create: SSHCertificateAuthorityCreate,
    update: SSHCertificateAuthorityUpdate,
    modules: NO_MODULES,
    label: (r) => [r['description'], r['key_type']],
  },
  sshCredential: {
    group: 'sshCredentials',
    create: SSHCredentialCreate,
    update: SSHCredentialUpdate,
    modules: NO_MODULES,
    label: (r) => [r['description'], String(r['public_key'] ?? '').split(' ')[2]],
    omit: ['owner_id'],
  },
  credential: {
    group: 'credentials',
    create: CredentialCreate,
    update: CredentialUpdate,
    modules: NO_MODULES,
    label: described,
    omit: ['owner_id'],
  },
  agentIngress: {
    group: 'agentIngresses',
    create: AgentIngressCreate,
    update: AgentIngressUpdate,
    modules: NO_MODULES,
    label: (r) => [r['domain']],
  },
  httpResponseBackend: {
    group: 'httpResponseBackends',
    create: HTTPResponseBackendCreate,
    update: HTTPResponseBackendUpdate,
    modules: NO_MODULES,
    label: described,
  },
  tunnelGroupBackend: {
    group: 'tunnelGroupBackends',
    create: TunnelGroupBackendCreate,
    update: TunnelGroupBackendUpdate,
    modules: NO_MODULES,
    label: described,
  },
  failoverBackend: {
    group: 'failoverBackends',
    create: FailoverBackendCreate,
    update: FailoverBackendUpdate,
    modules: NO_MODULES,
    label: described,
  },
  tlsEdge: {
    group: 'tlsEdges',
    create: TLSEdgeCreate,
    update: TLSEdgeUpdate,
    modules: TLS_EDGE_MODULES,
    label: (r) => [r['description'], (r['hostports'] as unknown[] | undefined)?.[0]],
  },
  httpsEdge: {
    group: 'httpsEdges',
    create: HTTPSEdgeCreate,
    update: HTTPSEdgeUpdate,
    modules: HTTPS_EDGE_MODULES,
    label: (r) => [r['description'], (r['hostports'] as unknown[] | undefined)?.[0]],
  },
  httpsEdgeRoute: {
    group: 'httpsEdgeRoutes',
    create: HTTPSEdgeRouteCreate,
    update: HTTPSEdgeRouteUpdate,
    modules: ROUTE_MODULES,
    // The edge's name goes in front (export/names.ts): a path alone says little.
    label: (r) => [r['description'], r['match']],
  },
};
