import { beforeAll } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';
import { startAccount, type Sandbox } from '../api/support.ts';
import { CA_PEM, PUBLIC_KEYS } from '../../../unit/shared/api/fixtures.ts';

export const IDP_METADATA =
  '<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"></md:EntityDescriptor>';

/** An IP policy, then each of `rules` on it; answers the policy. */
export async function policyWithRules(
  api: ApiClient,
  policy: Parameters<ApiClient['ipPolicies']['create']>[0],
  rules: readonly Omit<Parameters<ApiClient['ipPolicyRules']['create']>[0], 'ip_policy_id'>[],
) {
  const created = await api.ipPolicies.create(policy);
  for (const rule of rules) await api.ipPolicyRules.create({ ...rule, ip_policy_id: created.id });
  return created;
}

/**
 * An account holding every kind and every module, secrets included, with look-alikes (two IP
 * policies described alike), IP policy rules on both, and a failover backend falling over to
 * another failover backend.
 */
export async function seedAccount(api: ApiClient): Promise<void> {
  // Rules of both actions and families; office's two look alike but for their block.
  const office = await policyWithRules(api, { description: 'office', metadata: '{"a":1}' }, [
    { cidr: '10.0.0.0/8', action: 'allow' },
    { cidr: '10.9.0.0/16', action: 'deny' },
  ]);
  const office2 = await policyWithRules(api, { description: 'office', metadata: '{"a":2}' }, [
    { cidr: '2001:db8::/32', action: 'allow', description: 'lab v6' },
  ]);
  await api.ipPolicies.create({ description: 'unused' });
  const ca = await api.certificateAuthorities.create({ description: 'clients', ca_pem: CA_PEM });
  await api.sshCertificateAuthorities.create({
    description: 'hosts',
    private_key_type: 'ecdsa',
    elliptic_curve: 'p256',
  });
  await api.sshCertificateAuthorities.create({ private_key_type: 'ed25519' });
  await api.sshCertificateAuthorities.create({
    description: 'legacy',
    private_key_type: 'rsa',
    key_size: 2048,
  });
  await api.sshCredentials.create({ public_key: PUBLIC_KEYS.ed25519, acl: ['bind:*.example.com'] });
  await api.credentials.create({ description: 'laptop', acl: ['bind:app.example.com'] });
  await api.credentials.create({ description: 'ci' });
  await api.agentIngresses.create({ domain: 'ingress.example.com', description: 'ingress' });
  const maintenance = await api.httpResponseBackends.create({
    description: 'maintenance',
    body: 'down for maintenance',
    status_code: 503,
    headers: { 'content-type': 'text/plain' },
  });
  const group = await api.tunnelGroupBackends.create({
    description: 'prod',
    labels: { env: 'prod' },
  });
  const inner = await api.failoverBackends.create({
    description: 'inner',
    backends: [group.id, maintenance.id],
  });
  const outer = await api.failoverBackends.create({
    description: 'outer',
    backends: [inner.id, maintenance.id],
  });
  await api.tlsEdges.create({
    description: 'tls',
    hostports: ['tls.example.com:443'],
    backend: { backend_id: outer.id },
    ip_restriction: { ip_policy_ids: [office.id, office2.id] },
    mutual_tls: { certificate_authority_ids: [ca.id] },
    tls_termination: { terminate_at: 'edge', min_version: '1.2' },
  });
  const edge = await api.httpsEdges.create({
    description: 'www',
    hostports: ['www.example.com:443'],
    mutual_tls: { certificate_authority_ids: [ca.id] },
    tls_termination: { min_version: '1.3' },
  });
  await api.httpsEdgeRoutes.create(edge.id, {
    match_type: 'path_prefix',
    match: '/api',
    backend: { backend_id: inner.id },
    ip_restriction: { ip_policy_ids: [office2.id] },
    circuit_breaker: { error_threshold_percentage: 0.25 },
    compression: { enabled: false },
    request_headers: { add: { 'x-burrow': '1' }, remove: ['cookie'] },
    response_headers: { remove: ['server'] },
    webhook_verification: { provider: 'github', secret: 'webhook-s3cret' },
    oauth: {
      provider: { github: { client_id: 'gh-id', client_secret: 'gh-s3cret', teams: ['acme/ops'] } },
    },
    websocket_tcp_converter: {},
  });
  await api.httpsEdgeRoutes.create(edge.id, {
    match_type: 'exact_path',
    match: '/login',
    backend: { backend_id: maintenance.id },
    oidc: { issuer: 'https://idp.example.com', client_id: 'burrow', client_secret: 'oidc-s3cret' },
  });
  await api.httpsEdgeRoutes.create(edge.id, {
    description: 'sso',
    match_type: 'path_prefix',
    match: '/sso',
    saml: { idp_metadata: IDP_METADATA, authorized_groups: ['ops'] },
    webhook_verification: { provider: 'sns' },
  });
  await api.httpsEdges.create({ hostports: ['bare.example.com:443'] });
}

/**
 * One seeded account for a test file, started before its tests and closed after them. Its
 * `sandbox` and `api` can be taken out at once and read in the tests.
 */
export function seededAccountForFile(key: string) {
  const cleanup = cleanupAfterAll();
  let account: { sandbox: Sandbox; api: ApiClient } | undefined;
  beforeAll(async () => {
    account = await startAccount(key, cleanup);
    await seedAccount(account.api);
  });
  const started = () => {
    if (account === undefined) throw new Error('the account starts in beforeAll');
    return account;
  };
  return {
    get sandbox(): Sandbox {
      return started().sandbox;
    },
    get api(): ApiClient {
      return started().api;
    },
  };
}
