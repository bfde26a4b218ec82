import type { z } from 'zod';
import { AbuseReport, AbuseReportCreate } from '../kinds/abuse-reports.ts';
import { AgentIngress, AgentIngressCreate, AgentIngressUpdate } from '../kinds/agent-ingresses.ts';
import {
  FailoverBackend,
  FailoverBackendCreate,
  FailoverBackendUpdate,
  HTTPResponseBackend,
  HTTPResponseBackendCreate,
  HTTPResponseBackendUpdate,
  TunnelGroupBackend,
  TunnelGroupBackendCreate,
  TunnelGroupBackendUpdate,
} from '../kinds/backends.ts';
import {
  CertificateAuthority,
  CertificateAuthorityCreate,
  CertificateAuthorityUpdate,
} from '../kinds/certificate-authorities.ts';
import {
  CreatedCredential,
  Credential,
  CredentialCreate,
  CredentialUpdate,
  SSHCredential,
  SSHCredentialCreate,
  SSHCredentialUpdate,
} from '../kinds/credentials.ts';
import {
  collection,
  list,
  moduleOps,
  op,
  type Endpoint,
  type PathParams,
} from './endpoint-builders.ts';
import {
  HTTPSEdgeRoute,
  HTTPSEdgeRouteCreate,
  HTTPSEdgeRouteUpdate,
  ROUTE_MODULES,
} from '../kinds/https-edge-routes.ts';
import {
  HTTPS_EDGE_MODULES,
  HTTPSEdge,
  HTTPSEdgeCreate,
  HTTPSEdgeUpdate,
} from '../kinds/https-edges.ts';
import { IPPolicy, IPPolicyCreate, IPPolicyUpdate } from '../kinds/ip-policies.ts';
import { IPPolicyRule, IPPolicyRuleCreate, IPPolicyRuleUpdate } from '../kinds/ip-policy-rules.ts';
import {
  SSHCertificateAuthority,
  SSHCertificateAuthorityCreate,
  SSHCertificateAuthorityUpdate,
} from '../kinds/ssh-certificate-authorities.ts';
import {
  SSHHostCertificate,
  SSHHostCertificateCreate,
  SSHHostCertificateUpdate,
  SSHUserCertificate,
  SSHUserCertificateCreate,
  SSHUserCertificateUpdate,
} from '../kinds/ssh-certificates.ts';
import { TLS_EDGE_MODULES, TLSEdge, TLSEdgeCreate, TLSEdgeUpdate } from '../kinds/tls-edges.ts';
import {
  TunnelSession,
  TunnelSessionCommand,
  type TunnelSessionCommandName,
} from '../kinds/tunnel-sessions.ts';

function command<C extends TunnelSessionCommandName>(name: C) {
  const path = `/tunnel_sessions/{id}/${name}` as const;
  return op(
    `tunnelSessions.${name}`,
    'POST',
    path,
    { id: 'tunnelSession' },
    TunnelSessionCommand,
    null,
    204,
  );
}

const ROUTES_PATH = '/edges/https/{edge_id}/routes';
const ROUTE_PATH = `${ROUTES_PATH}/{id}` as const;
const ROUTE_PARAMS = { edge_id: 'httpsEdge', id: 'httpsEdgeRoute' } as const satisfies PathParams;

/** Every operation of the API, in the order of the spec. The server, the client and the OpenAPI document are built from it. */
export const ENDPOINTS = [
  ...collection({
    group: 'ipPolicies',
    path: '/ip_policies',
    kind: 'ipPolicy',
    item: IPPolicy,
    listKey: 'ip_policies',
    create: IPPolicyCreate,
    created: IPPolicy,
    update: IPPolicyUpdate,
  }),
  ...collection({
    group: 'ipPolicyRules',
    path: '/ip_policy_rules',
    kind: 'ipPolicyRule',
    item: IPPolicyRule,
    listKey: 'ip_policy_rules',
    create: IPPolicyRuleCreate,
    created: IPPolicyRule,
    update: IPPolicyRuleUpdate,
  }),
  ...collection({
    group: 'sshCertificateAuthorities',
    path: '/ssh_certificate_authorities',
    kind: 'sshCertificateAuthority',
    item: SSHCertificateAuthority,
    listKey: 'ssh_certificate_authorities',
    create: SSHCertificateAuthorityCreate,
    created: SSHCertificateAuthority,
    update: SSHCertificateAuthorityUpdate,
  }),
  ...collection({
    group: 'sshUserCertificates',
    path: '/ssh_user_certificates',
    kind: 'sshUserCertificate',
    item: SSHUserCertificate,
    listKey: 'ssh_user_certificates',
    create: SSHUserCertificateCreate,
    created: SSHUserCertificate,
    update: SSHUserCertificateUpdate,
  }),
  ...collection({
    group: 'sshHostCertificates',
    path: '/ssh_host_certificates',
    kind: 'sshHostCertificate',
    item: SSHHostCertificate,
    listKey: 'ssh_host_certificates',
    create: SSHHostCertificateCreate,
    created: SSHHostCertificate,
    update: SSHHostCertificateUpdate,
  }),
  ...collection({
    group: 'sshCredentials',
    path: '/ssh_credentials',
    kind: 'sshCredential',
    item: SSHCredential,
    listKey: 'ssh_credentials',
    create: SSHCredentialCreate,
    created: SSHCredential,
    update: SSHCredentialUpdate,
  }),
  ...collection({
    group: 'credentials',
    path: '/credentials',
    kind: 'credential',
    item: Credential,
    listKey: 'credentials',
    create: CredentialCreate,
    created: CreatedCredential,
    update: CredentialUpdate,
  }),
  ...collection({
    group: 'agentIngresses',
    path: '/agent_ingresses',
    kind: 'agentIngress',
    item: AgentIngress,
    listKey: 'ingresses',
    create: AgentIngressCreate,
    created: AgentIngress,
    update: AgentIngressUpdate,
  }),
  ...collection({
    group: 'failoverBackends',
    path: '/backends/failover',
    kind: 'failoverBackend',
    item: FailoverBackend,
    listKey: 'backends',
    create: FailoverBackendCreate,
    created: FailoverBackend,
    update: FailoverBackendUpdate,
  }),
  ...collection({
    group: 'httpResponseBackends',
    path: '/backends/http_response',
    kind: 'httpResponseBackend',
    item: HTTPResponseBackend,
    listKey: 'backends',
    create: HTTPResponseBackendCreate,
    created: HTTPResponseBackend,
    update: HTTPResponseBackendUpdate,
  }),
  ...collection({
    group: 'tunnelGroupBackends',
    path: '/backends/tunnel_group',
    kind: 'tunnelGroupBackend',
    item: TunnelGroupBackend,
    listKey: 'backends',
    create: TunnelGroupBackendCreate,
    created: TunnelGroupBackend,
    update: TunnelGroupBackendUpdate,
  }),
  ...collection({
    group: 'certificateAuthorities',
    path: '/certificate_authorities',
    kind: 'certificateAuthority',
    item: CertificateAuthority,
    listKey: 'certificate_authorities',
    create: CertificateAuthorityCreate,
    created: CertificateAuthority,
    update: CertificateAuthorityUpdate,
  }),
  ...collection({
    group: 'tlsEdges',
    path: '/edges/tls',
    kind: 'tlsEdge',
    item: TLSEdge,
    listKey: 'tls_edges',
    create: TLSEdgeCreate,
    created: TLSEdge,
    update: TLSEdgeUpdate,
  }),
  ...moduleOps('tlsEdges', '/edges/tls/{id}', { id: 'tlsEdge' }, TLS_EDGE_MODULES),
  ...collection({
    group: 'httpsEdges',
    path: '/edges/https',
    kind: 'httpsEdge',
    item: HTTPSEdge,
    listKey: 'https_edges',
    create: HTTPSEdgeCreate,
    created: HTTPSEdge,
    update: HTTPSEdgeUpdate,
  }),
  ...moduleOps('httpsEdges', '/edges/https/{id}', { id: 'httpsEdge' }, HTTPS_EDGE_MODULES),
  // Routes have no list of their own: they come inside their edge.
  op(
    'httpsEdgeRoutes.create',
    'POST',
    ROUTES_PATH,
    { edge_id: 'httpsEdge' },
    HTTPSEdgeRouteCreate,
    HTTPSEdgeRoute,
    201,
  ),
  op('httpsEdgeRoutes.get', 'GET', ROUTE_PATH, ROUTE_PARAMS, null, HTTPSEdgeRoute, 200),
  op(
    'httpsEdgeRoutes.update',
    'PATCH',
    ROUTE_PATH,
    ROUTE_PARAMS,
    HTTPSEdgeRouteUpdate,
    HTTPSEdgeRoute,
    200,
  ),
  op('httpsEdgeRoutes.delete', 'DELETE', ROUTE_PATH, ROUTE_PARAMS, null, null, 204),
  ...moduleOps('httpsEdgeRoutes', ROUTE_PATH, ROUTE_PARAMS, ROUTE_MODULES),
  list('tunnelSessions', '/tunnel_sessions', 'tunnelSession', 'tunnel_sessions', TunnelSession),
  op(
    'tunnelSessions.get',
    'GET',
    '/tunnel_sessions/{id}',
    { id: 'tunnelSession' },
    null,
    TunnelSession,
    200,
  ),
  command('restart'),
  command('stop'),
  command('update'),
  op('abuseReports.create', 'POST', '/abuse_reports', {}, AbuseReportCreate, AbuseReport, 201),
  op(
    'abuseReports.get',
    'GET',
    '/abuse_reports/{id}',
    { id: 'abuseReport' },
    null,
    AbuseReport,
    200,
  ),
] as const satisfies readonly Endpoint[];

export type AnyEndpoint = (typeof ENDPOINTS)[number];
export type EndpointName = AnyEndpoint['name'];
export type EndpointOf<N extends EndpointName> = Extract<AnyEndpoint, { readonly name: N }>;

/** What a client sends: the body schema's input, or undefined for operations without a body. */
export type BodyOf<N extends EndpointName> = EndpointOf<N>['body'] extends infer B extends z.ZodType
  ? z.input<B>
  : undefined;
/** What the server gets out of a valid body, defaults filled in. */
export type ParsedBodyOf<N extends EndpointName> = EndpointOf<N>['body'] extends infer B extends
  z.ZodType
  ? z.output<B>
  : undefined;
/** What the operation answers with, or undefined for a 204. */
export type ResponseOf<N extends EndpointName> = EndpointOf<N>['response'] extends infer R extends
  z.ZodType
  ? z.output<R>
  : undefined;
export type PathParamsOf<N extends EndpointName> = {
  readonly [P in keyof EndpointOf<N>['pathParams']]: string;
};

const BY_NAME: ReadonlyMap<string, AnyEndpoint> = new Map(ENDPOINTS.map((e) => [e.name, e]));

export function endpoint<N extends EndpointName>(name: N): EndpointOf<N> {
  return BY_NAME.get(name) as EndpointOf<N>;
}

/** A catalog path with its parameters filled in, each percent-encoded. */
export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(params[param] ?? ''));
}

/** The endpoint's path with its parameters filled in, each percent-encoded. */
export function endpointPath<N extends EndpointName>(name: N, params: PathParamsOf<N>): string {
  return fillPath(endpoint(name).path, params);
}
