import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { ApiError } from '../../../../core/api/errors.ts';
import type { CallArgs } from '../../../../core/api/types.ts';
import type { KindGroup } from '../../../../core/snapshot/resources/kinds.ts';
import {
  ENDPOINTS,
  type BodyOf,
  type EndpointName,
  type ResponseOf,
} from '../../../../shared/api/catalog/endpoints.ts';
import { CA_PEM, PUBLIC_KEYS } from '../../../unit/shared/api/fixtures.ts';
import { clientOf, startSandbox, type Sandbox } from './support.ts';

/*
 * Every endpoint of the catalog, called through the client against the sandbox: each resource
 * is created, read, listed, updated, its modules replaced, read and removed, then it is deleted.
 * The last test checks that nothing of ENDPOINTS was left out.
 */
let sandbox: Sandbox;
let client: ApiClient;
const covered = new Set<EndpointName>();

function call<N extends EndpointName>(name: N, ...args: CallArgs<N>): Promise<ResponseOf<N>> {
  covered.add(name);
  return client.call(name, ...args);
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'endpoints-key', rateLimit: 'off' });
  client = clientOf(sandbox).client;
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

/** For loops over the catalog, where a name is computed and its body type cannot follow. */
const callAny = call as unknown as (name: string, request?: object) => Promise<unknown>;

type Created = Record<string, { id: string }>;
/** The snapshot's kinds, routes aside (they live under their edge), and the certificates. */
type Group = Exclude<KindGroup, 'httpsEdgeRoutes'> | 'sshUserCertificates' | 'sshHostCertificates';

/** In creation order: later ones refer to earlier ones, so they are deleted in reverse. */
const CREATE: { readonly [G in Group]: (made: Created) => BodyOf<`${G}.create`> } = {
  ipPolicies: () => ({ description: 'office', metadata: '{"team":"ops"}' }),
  ipPolicyRules: (made) => ({
    cidr: '2001:db8::/32',
    ip_policy_id: made['ipPolicies']?.id ?? '',
    action: 'deny',
  }),
  sshCertificateAuthorities: () => ({ private_key_type: 'ed25519' }),
  sshUserCertificates: (made) => ({
    ssh_certificate_authority_id: made['sshCertificateAuthorities']?.id ?? '',
    public_key: PUBLIC_KEYS.ed25519,
    principals: ['alice'],
  }),
  sshHostCertificates: (made) => ({
    ssh_certificate_authority_id: made['sshCertificateAuthorities']?.id ?? '',
    public_key: PUBLIC_KEYS.ecdsa256,
    principals: ['host.example.com'],
  }),
  sshCredentials: () => ({ public_key: PUBLIC_KEYS.rsa, acl: ['bind:*.example.com'] }),
  credentials: () => ({ description: 'laptop' }),
  agentIngresses: () => ({ domain: 'ingress.example.com' }),
  httpResponseBackends: () => ({ body: 'maintenance', status_code: 503 }),
  tunnelGroupBackends: () => ({ labels: { env: 'prod' } }),
  failoverBackends: (made) => ({
    backends: [made['tunnelGroupBackends']?.id ?? '', made['httpResponseBackends']?.id ?? ''],
  }),
  certificateAuthorities: () => ({ ca_pem: CA_PEM }),
  tlsEdges: () => ({ hostports: ['tls.example.com:443'] }),
  httpsEdges: () => ({ hostports: ['www.example.com:443'] }),
};

const IDP_METADATA =
  '<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"></md:EntityDescriptor>';

type ReplaceName = Extract<EndpointName, `${string}.replace`>;
const MODULES: { readonly [N in ReplaceName]: (made: Created) => BodyOf<N> } = {
  'tlsEdges.backend.replace': (made) => ({ backend_id: made['failoverBackends']?.id ?? '' }),
  'tlsEdges.ip_restriction.replace': (made) => ({ ip_policy_ids: [made['ipPolicies']?.id ?? ''] }),
  'tlsEdges.mutual_tls.replace': (made) => ({
    certificate_authority_ids: [made['certificateAuthorities']?.id ?? ''],
  }),
  'tlsEdges.tls_termination.replace': () => ({ terminate_at: 'edge', min_version: '1.2' }),
  'httpsEdges.mutual_tls.replace': (made) => ({
    certificate_authority_ids: [made['certificateAuthorities']?.id ?? ''],
  }),
  'httpsEdges.tls_termination.replace': () => ({ min_version: '1.3' }),
  'httpsEdgeRoutes.backend.replace': (made) => ({
    backend_id: made['httpResponseBackends']?.id ?? '',
  }),
  'httpsEdgeRoutes.ip_restriction.replace': (made) => ({
    ip_policy_ids: [made['ipPolicies']?.id ?? ''],
  }),
  'httpsEdgeRoutes.circuit_breaker.replace': () => ({ error_threshold_percentage: 0.25 }),
  'httpsEdgeRoutes.compression.replace': () => ({ enabled: false }),
  'httpsEdgeRoutes.request_headers.replace': () => ({
    add: { 'x-burrow': '1' },
    remove: ['cookie'],
  }),
  'httpsEdgeRoutes.response_headers.replace': () => ({ remove: ['server'] }),
  'httpsEdgeRoutes.webhook_verification.replace': () => ({ provider: 'github', secret: 's3cret' }),
  'httpsEdgeRoutes.oauth.replace': () => ({ provider: { google: {} } }),
  'httpsEdgeRoutes.saml.replace': () => ({ idp_metadata: IDP_METADATA }),
  'httpsEdgeRoutes.oidc.replace': () => ({
    issuer: 'https://idp.example.com',
    client_id: 'burrow',
    client_secret: 'secret',
  }),
  'httpsEdgeRoutes.websocket_tcp_converter.replace': () => ({}),
};

const made: Created = {};
const groups = Object.keys(CREATE) as Group[];

describe('every endpoint through the client', () => {
  it('creates, reads, lists and updates every kind of resource', async () => {
    for (const group of groups) {
      const resource = (await callAny(`${group}.create`, {
        body: CREATE[group](made),
      })) as { id: string; description?: string };
      made[group] = resource;
      const get = await callAny(`${group}.get`, { params: { id: resource.id } });
      expect(get, group).toMatchObject({ id: resource.id });
      const list = (await callAny(`${group}.list`, { query: { limit: 5 } })) as Record<
        string,
        unknown
      >;
      expect(JSON.stringify(list), group).toContain(resource.id);
      const updated = await callAny(`${group}.update`, {
        params: { id: resource.id },
        body: { description: `updated ${group}` },
      });
      expect(updated, group).toMatchObject({ description: `updated ${group}` });
    }
  });

  it('gives the one-time token of a tunnel credential on create only', async () => {
    const created = await call('credentials.create', { body: { description: 'once' } });
    expect(created.token).toEqual(expect.any(String));
    const read = await call('credentials.get', { params: { id: created.id } });
    expect(read.token).toBeNull();
    await client.credentials.delete(created.id);
  });

  it('creates, reads and updates an HTTPS edge route', async () => {
    const edge = made['httpsEdges']?.id ?? '';
    const route = await call('httpsEdgeRoutes.create', {
      params: { edge_id: edge },
      body: { match_type: 'path_prefix', match: '/api' },
    });
    made['httpsEdgeRoutes'] = route;
    expect(route).toMatchObject({ edge_id: edge, match: '/api' });
    const read = await call('httpsEdgeRoutes.get', { params: { edge_id: edge, id: route.id } });
    expect(read.id).toBe(route.id);
    const updated = await call('httpsEdgeRoutes.update', {
      params: { edge_id: edge, id: route.id },
      body: { description: 'api route' },
    });
    expect(updated.description).toBe('api route');
    const withRoute = await client.httpsEdges.get(edge);
    expect(withRoute.routes.map((r) => r.id)).toEqual([route.id]);
  });

  it('replaces, reads and removes every module of every edge and route', async () => {
    for (const name of Object.keys(MODULES) as ReplaceName[]) {
      const prefix = name.slice(0, -'.replace'.length);
      const group = prefix.split('.')[0] as 'tlsEdges' | 'httpsEdges' | 'httpsEdgeRoutes';
      const params =
        group === 'httpsEdgeRoutes'
          ? { edge_id: made['httpsEdges']?.id, id: made['httpsEdgeRoutes']?.id }
          : { id: made[group]?.id };
      const body = MODULES[name](made);
      const replaced = await callAny(name, { params, body });
      expect(replaced, name).toMatchObject({
        enabled: (body as { enabled?: boolean }).enabled ?? true,
      });
      expect(await callAny(`${prefix}.get`, { params }), name).toEqual(replaced);
      expect(await callAny(`${prefix}.delete`, { params }), name).toBeUndefined();
      const gone = await callAny(`${prefix}.get`, { params }).catch((e: unknown) => e);
      expect(gone, name).toBeInstanceOf(ApiError);
      expect(gone, name).toMatchObject({ status: 404 });
    }
  });

  it('lists tunnel sessions, and answers commands on an unknown session with a readable 404', async () => {
    const sessions = await call('tunnelSessions.list');
    expect(sessions.tunnel_sessions).toEqual(expect.any(Array));
    for (const name of [
      'tunnelSessions.get',
      'tunnelSessions.restart',
      'tunnelSessions.stop',
      'tunnelSessions.update',
    ] as const) {
      const error = await callAny(name, { params: { id: 'ts_gone' } }).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(ApiError);
      expect(error, name).toMatchObject({
        status: 404,
        operationId: expect.stringMatching(/^op_/),
      });
      expect((error as ApiError).message).toMatch(/\(ERR_SERVICE_\d+, op_\w+\)$/);
    }
  });

  it('files and reads an abuse report', async () => {
    const report = await call('abuseReports.create', {
      body: { urls: ['https://phish.example.com/login'] },
    });
    expect(report.status).toMatch(/PENDING|PROCESSED|PARTIALLY_PROCESSED/);
    const read = await call('abuseReports.get', { params: { id: report.id } });
    expect(read.urls).toEqual(['https://phish.example.com/login']);
  });

  it('deletes every resource, each delete answering 204 with no body', async () => {
    const edge = made['httpsEdges']?.id ?? '';
    const route = made['httpsEdgeRoutes']?.id ?? '';
    await expect(
      call('httpsEdgeRoutes.delete', { params: { edge_id: edge, id: route } }),
    ).resolves.toBeUndefined();
    for (const group of [...groups].reverse()) {
      const id = made[group]?.id ?? '';
      await expect(callAny(`${group}.delete`, { params: { id } }), group).resolves.toBeUndefined();
      const error = await callAny(`${group}.get`, { params: { id } }).catch((e: unknown) => e);
      expect(error, group).toMatchObject({ status: 404, errorName: 'notFound' });
    }
  });

  it('has called every endpoint of the catalog', () => {
    expect(ENDPOINTS.map((e) => e.name).filter((name) => !covered.has(name))).toEqual([]);
  });
});
