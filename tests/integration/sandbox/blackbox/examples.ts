import { generateKeyPairSync } from 'node:crypto';
import type { EndpointName } from '../../../../shared/api/catalog/endpoints.ts';
import { ROUTE_MODULES } from '../../../../shared/api/kinds/https-edge-routes.ts';
import { TLS_EDGE_MODULES } from '../../../../shared/api/kinds/tls-edges.ts';
import { CA_PEM } from '../../../unit/shared/api/fixtures.ts';

/** Ids of existing resources that valid bodies refer to. */
export type Refs = {
  readonly ipPolicy: string;
  readonly certificateAuthority: string;
  readonly httpResponseBackend: string;
  readonly tunnelGroupBackend: string;
  readonly failoverBackend: string;
  readonly sshCertificateAuthority: string;
};

export type Body = Record<string, unknown>;

let counter = 0;
/** A token unique within this process, for names that might have to be unique (matches, domains). */
export function unique(): string {
  counter += 1;
  return `${process.pid.toString(36)}x${counter.toString(36)}`;
}

function sshString(bytes: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A freshly generated ed25519 public key in authorized_keys form, so that no two are alike. */
export function freshSshPublicKey(comment = 'blackbox@test'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x ?? '';
  const blob = Buffer.concat([
    sshString(Buffer.from('ssh-ed25519')),
    sshString(Buffer.from(x, 'base64url')),
  ]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

export const SAML_METADATA =
  '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com/metadata">' +
  '<IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
  '<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>' +
  '</IDPSSODescriptor></EntityDescriptor>';

const described = (what: string) => ({ description: `${what} ✓`, metadata: '{"team":"qa"}' });

/** What both kinds of SSH certificate take: a fresh key, signed by the account's CA. */
const certificate = (what: string, refs: Refs) => ({
  ...described(what),
  ssh_certificate_authority_id: refs.sshCertificateAuthority,
  public_key: freshSshPublicKey(),
});

/** The named modules' write forms, as an edge or route body carries them. */
function moduleExamples(modules: readonly string[], refs: Refs): Body {
  return Object.fromEntries(modules.map((m) => [m, moduleExample(m, refs)]));
}

/** Write forms of every module, valid on their own. */
export function moduleExample(module: string, refs: Refs): Body {
  switch (module) {
    case 'backend':
      return { enabled: true, backend_id: refs.httpResponseBackend };
    case 'ip_restriction':
      return { enabled: true, ip_policy_ids: [refs.ipPolicy] };
    case 'mutual_tls':
      return { enabled: true, certificate_authority_ids: [refs.certificateAuthority] };
    case 'tls_termination':
      return { enabled: true, terminate_at: 'edge', min_version: '1.2' };
    case 'https_tls_termination':
      return { enabled: true, min_version: '1.3' };
    case 'circuit_breaker':
      return {
        enabled: true,
        tripped_duration: 20,
        rolling_window: 30,
        num_buckets: 128,
        volume_threshold: 50,
        error_threshold_percentage: 0.25,
      };
    case 'compression':
      return { enabled: true };
    case 'request_headers':
      return { enabled: true, add: { 'x-burrow': 'yes' }, remove: ['x-secret'] };
    case 'response_headers':
      return { enabled: false, add: { 'x-served-by': 'burrow' }, remove: ['server'] };
    case 'webhook_verification':
      return { enabled: true, provider: 'github', secret: 's3cret' };
    case 'oauth':
      return {
        enabled: true,
        provider: {
          github: {
            client_id: 'gh-client',
            client_secret: 'gh-secret',
            scopes: ['read:org'],
            email_addresses: ['alice@example.com'],
            email_domains: ['example.com'],
            teams: ['acme/qa'],
            organizations: ['acme'],
          },
        },
        options_passthrough: true,
        cookie_prefix: 'burrow.',
        inactivity_timeout: 600,
        maximum_duration: 3600,
        auth_check_interval: 300,
      };
    case 'saml':
      return {
        enabled: true,
        options_passthrough: false,
        cookie_prefix: 'saml.',
        inactivity_timeout: 60,
        maximum_duration: 7200,
        idp_metadata: SAML_METADATA,
        force_authn: true,
        allow_idp_initiated: false,
        authorized_groups: ['engineering'],
        nameid_format: '',
      };
    case 'oidc':
      return {
        enabled: true,
        options_passthrough: true,
        cookie_prefix: 'oidc.',
        inactivity_timeout: 300,
        maximum_duration: 86400,
        issuer: 'https://accounts.example.com',
        client_id: 'oidc-client',
        client_secret: 'oidc-secret',
        scopes: ['openid', 'email'],
      };
    case 'websocket_tcp_converter':
      return { enabled: true };
    default:
      throw new Error(`no example for module ${module}`);
  }
}

/** The module name of a module endpoint (`tlsEdges.backend.replace` → backend), else undefined. */
export function moduleOf(name: string): string | undefined {
  const parts = name.split('.');
  return parts.length === 3 ? parts[1] : undefined;
}

/** A valid body for every endpoint that takes one (each call differs where uniqueness may matter). */
export function exampleBody(name: EndpointName, refs: Refs): Body {
  const module = moduleOf(name);
  if (module !== undefined)
    return moduleExample(
      name === 'httpsEdges.tls_termination.replace' ? 'https_tls_termination' : module,
      refs,
    );
  const u = unique();
  switch (name) {
    case 'ipPolicies.create':
      return described('office network');
    case 'ipPolicyRules.create':
      return {
        ...described('office range'),
        cidr: '203.0.113.0/24',
        ip_policy_id: refs.ipPolicy,
        action: 'allow',
      };
    case 'ipPolicyRules.update':
      return { ...described('moved'), cidr: '2001:db8::/48' };
    case 'sshCertificateAuthorities.create':
      return { ...described('ssh ca'), private_key_type: 'ed25519' };
    case 'sshUserCertificates.create':
      return {
        ...certificate('user cert', refs),
        principals: ['alice', 'root'],
        critical_options: { 'force-command': '/bin/true', 'source-address': '10.0.0.0/8' },
        extensions: { 'permit-pty': '', 'permit-port-forwarding': '' },
        valid_after: '2030-01-01T00:00:00Z',
        valid_until: '2030-01-02T00:00:00Z',
      };
    case 'sshHostCertificates.create':
      return {
        ...certificate('host cert', refs),
        principals: ['host.example.com', '10.0.0.1'],
        valid_after: '2030-01-01T00:00:00Z',
        valid_until: '2031-01-01T00:00:00Z',
      };
    case 'sshCredentials.create':
      return {
        ...described('ssh credential'),
        public_key: freshSshPublicKey(),
        acl: ['bind:*.example.com', 'bind:env=prod'],
      };
    case 'credentials.create':
      return { ...described('laptop'), acl: ['bind:app.example.com'] };
    case 'sshCredentials.update':
    case 'credentials.update':
      return { ...described('renamed'), acl: ['*'] };
    case 'agentIngresses.create':
      return { ...described('ingress'), domain: `ingress-${u}.example.com` };
    case 'failoverBackends.create':
    case 'failoverBackends.update':
      return {
        ...described('failover'),
        backends: [refs.httpResponseBackend, refs.tunnelGroupBackend],
      };
    case 'httpResponseBackends.create':
    case 'httpResponseBackends.update':
      return {
        ...described('teapot'),
        body: 'short and stout',
        headers: { 'x-teapot': '1' },
        status_code: 418,
      };
    case 'tunnelGroupBackends.create':
    case 'tunnelGroupBackends.update':
      return { ...described('group'), labels: { env: 'prod', team: 'qa' } };
    case 'certificateAuthorities.create':
      return { ...described('client ca'), ca_pem: CA_PEM };
    case 'tlsEdges.create':
    case 'tlsEdges.update':
      return {
        ...described('tls edge'),
        hostports: [`tls-${u}.example.com:443`],
        ...moduleExamples(Object.keys(TLS_EDGE_MODULES), refs),
      };
    case 'httpsEdges.create':
    case 'httpsEdges.update':
      return {
        ...described('https edge'),
        hostports: [`https-${u}.example.com:443`],
        mutual_tls: moduleExample('mutual_tls', refs),
        tls_termination: moduleExample('https_tls_termination', refs),
      };
    case 'httpsEdgeRoutes.create':
    case 'httpsEdgeRoutes.update':
      return {
        ...described('route'),
        match_type: 'path_prefix',
        match: `/api-${u}`,
        // A route takes one auth module at most: OIDC stands for the three.
        ...moduleExamples(
          Object.keys(ROUTE_MODULES).filter((m) => m !== 'oauth' && m !== 'saml'),
          refs,
        ),
      };
    case 'tunnelSessions.restart':
    case 'tunnelSessions.stop':
    case 'tunnelSessions.update':
      return {};
    case 'abuseReports.create':
      return {
        urls: ['https://phish.example.com/login', 'http://phish.example.com/other'],
        metadata: 'seen in an email',
      };
    default:
      // Every remaining update takes description and metadata only.
      if (name.endsWith('.update')) return described('updated');
      throw new Error(`no example body for ${name}`);
  }
}
