import { describe, expect, it } from 'vitest';
import { OAUTH_PROVIDERS } from '../../../shared/api/kinds/auth-modules.ts';
import type { ROUTE_MODULES } from '../../../shared/api/kinds/https-edge-routes.ts';
import { CA_PEM, expectError, sandboxForFile } from './support.ts';

const suite = sandboxForFile();
const { api } = suite;

const create = async (path: string, body: object = {}) => {
  const reply = await api('POST', path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};

describe('TLS edges', () => {
  it('creates with modules, renders references as Refs and absent modules as null', async () => {
    const backend = await create('/backends/http_response', {});
    const policy = await create('/ip_policies');
    const edge = await api('POST', '/edges/tls', {
      hostports: ['app.example.com:443'],
      backend: { backend_id: backend },
      ip_restriction: { ip_policy_ids: [policy] },
    });
    expect(edge.body).toMatchObject({
      uri: `${suite.sandbox.url}/edges/tls/${edge.body.id}`,
      hostports: ['app.example.com:443'],
      backend: {
        enabled: true,
        backend: { id: backend, uri: `${suite.sandbox.url}/backends/http_response/${backend}` },
      },
      ip_restriction: {
        enabled: true,
        ip_policies: [{ id: policy, uri: `${suite.sandbox.url}/ip_policies/${policy}` }],
      },
      mutual_tls: null,
      tls_termination: null,
    });
    expect((await api('POST', '/edges/tls', {})).body.hostports).toEqual([]);
  });

  it('replaces on PATCH only the modules it names', async () => {
    const b1 = await create('/backends/http_response');
    const b2 = await create('/backends/tunnel_group', { labels: { a: 'b' } });
    const id = await create('/edges/tls', {
      description: 'one',
      backend: { backend_id: b1 },
      tls_termination: { min_version: '1.3' },
    });
    const patched = await api('PATCH', `/edges/tls/${id}`, {
      backend: { backend_id: b2, enabled: false },
    });
    expect(patched.body).toMatchObject({
      description: 'one',
      backend: { enabled: false, backend: { id: b2 } },
      tls_termination: { enabled: true, terminate_at: 'edge', min_version: '1.3' },
    });
    // The old backend is free again, the new one is held.
    expect((await api('DELETE', `/backends/http_response/${b1}`)).status).toBe(204);
    expectError(await api('DELETE', `/backends/tunnel_group/${b2}`), 'stillReferenced');
  });

  it('keeps TLS termination rules after merging (310, 311)', async () => {
    const ca = await create('/certificate_authorities', { ca_pem: CA_PEM });
    const id = await create('/edges/tls', { mutual_tls: { certificate_authority_ids: [ca] } });
    expectError(
      await api('PATCH', `/edges/tls/${id}`, { tls_termination: { terminate_at: 'upstream' } }),
      'moduleNeedsEdgeTermination',
    );
    expectError(
      await api('PUT', `/edges/tls/${id}/tls_termination`, { terminate_at: 'upstream' }),
      'moduleNeedsEdgeTermination',
    );
    expectError(
      await api('PUT', `/edges/tls/${id}/tls_termination`, {
        terminate_at: 'upstream',
        min_version: '1.2',
      }),
      'minVersionWithUpstream',
    );
    expectError(
      await api('POST', '/edges/tls', {
        mutual_tls: { certificate_authority_ids: [ca] },
        tls_termination: { terminate_at: 'upstream' },
      }),
      'moduleNeedsEdgeTermination',
    );
    // Disabled mutual TLS does not need the traffic.
    await api('PUT', `/edges/tls/${id}/mutual_tls`, {
      enabled: false,
      certificate_authority_ids: [ca],
    });
    const upstream = await api('PUT', `/edges/tls/${id}/tls_termination`, {
      terminate_at: 'upstream',
    });
    expect(upstream.body).toEqual({ enabled: true, terminate_at: 'upstream', min_version: null });
    expectError(
      await api('PUT', `/edges/tls/${id}/mutual_tls`, { certificate_authority_ids: [ca] }),
      'moduleNeedsEdgeTermination',
    );
    expectError(await api('DELETE', `/certificate_authorities/${ca}`), 'stillReferenced');
  });

  it('serves module endpoints: PUT replaces, GET of an unset one is 307, DELETE unsets', async () => {
    const id = await create('/edges/tls');
    expectError(await api('GET', `/edges/tls/${id}/backend`), 'moduleNotConfigured');
    expectError(
      await api('PUT', `/edges/tls/${id}/backend`, { backend_id: 'bkdhr_missing' }),
      'invalidReference',
    );
    const backend = await create('/backends/http_response');
    const put = await api('PUT', `/edges/tls/${id}/backend`, { backend_id: backend });
    expect(put.body).toEqual({
      enabled: true,
      backend: { id: backend, uri: `${suite.sandbox.url}/backends/http_response/${backend}` },
    });
    expect((await api('GET', `/edges/tls/${id}/backend`)).body).toEqual(put.body);
    expect((await api('DELETE', `/edges/tls/${id}/backend`)).status).toBe(204);
    expect((await api('GET', `/edges/tls/${id}`)).body.backend).toBeNull();
    expect((await api('DELETE', `/edges/tls/${id}/backend`)).status).toBe(204);
    expectError(await api('GET', '/edges/tls/edgtls_missing/backend'), 'notFound');
  });

  it('lets a deleted IP policy act as empty: the edge keeps its Ref', async () => {
    const policy = await create('/ip_policies');
    const id = await create('/edges/tls', { ip_restriction: { ip_policy_ids: [policy] } });
    expect((await api('DELETE', `/ip_policies/${policy}`)).status).toBe(204);
    const edge = await api('GET', `/edges/tls/${id}`);
    expect(edge.body.ip_restriction.ip_policies).toEqual([
      { id: policy, uri: `${suite.sandbox.url}/ip_policies/${policy}` },
    ]);
    // Naming it anew is a reference to nothing.
    expectError(
      await api('PUT', `/edges/tls/${id}/ip_restriction`, { ip_policy_ids: [policy] }),
      'invalidReference',
    );
  });
});

describe('HTTPS edges and routes', () => {
  it('creates an edge, its routes (oldest first, unique match) and deletes them with it', async () => {
    const edge = await api('POST', '/edges/https', {
      hostports: ['www.example.com:443'],
      tls_termination: {},
    });
    expect(edge.body).toMatchObject({
      uri: `${suite.sandbox.url}/edges/https/${edge.body.id}`,
      tls_termination: { enabled: true, min_version: '1.2' },
      mutual_tls: null,
      routes: [],
    });
    const id = edge.body.id as string;
    const r1 = await api('POST', `/edges/https/${id}/routes`, {
      match_type: 'path_prefix',
      match: '/',
    });
    expect(r1.body).toMatchObject({ edge_id: id, match: '/', backend: null, oauth: null });
    expect(r1.body.uri).toBe(`${suite.sandbox.url}/edges/https/${id}/routes/${r1.body.id}`);
    const r2 = await api('POST', `/edges/https/${id}/routes`, {
      match_type: 'exact_path',
      match: '/api',
    });
    expectError(
      await api('POST', `/edges/https/${id}/routes`, { match_type: 'exact_path', match: '/api' }),
      'routeMatchTaken',
    );
    expectError(
      await api('PATCH', `/edges/https/${id}/routes/${r1.body.id}`, { match: '/api' }),
      'routeMatchTaken',
    );
    expect(
      (await api('PATCH', `/edges/https/${id}/routes/${r1.body.id}`, { description: 'root' })).body
        .description,
    ).toBe('root');
    const got = await api('GET', `/edges/https/${id}`);
    expect(got.body.routes.map((r: { id: string }) => r.id)).toEqual([r1.body.id, r2.body.id]);
    expect((await api('GET', '/edges/https')).body.https_edges[0].id).toBe(id);

    // A route is only found under its own edge.
    const other = await create('/edges/https');
    expectError(await api('GET', `/edges/https/${other}/routes/${r1.body.id}`), 'notFound');

    expect((await api('DELETE', `/edges/https/${id}/routes/${r2.body.id}`)).status).toBe(204);
    expect((await api('GET', `/edges/https/${id}`)).body.routes).toHaveLength(1);
    expect((await api('DELETE', `/edges/https/${id}`)).status).toBe(204);
    expectError(await api('GET', `/edges/https/${id}/routes/${r1.body.id}`), 'notFound');
  });

  it('serves every route module, and keeps one auth module per route (312 after merge)', async () => {
    const edge = await create('/edges/https', { hostports: ['auth.example.com:443'] });
    const route = (
      await api('POST', `/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' })
    ).body.id;
    const base = `/edges/https/${edge}/routes/${route}`;
    const backend = await create('/backends/http_response');
    const policy = await create('/ip_policies');
    const bodies: Record<keyof typeof ROUTE_MODULES, object> = {
      backend: { backend_id: backend },
      ip_restriction: { ip_policy_ids: [policy] },
      circuit_breaker: { num_buckets: 128, error_threshold_percentage: 0.25 },
      compression: {},
      request_headers: { add: { 'X-A': '1' }, remove: ['X-B'] },
      response_headers: { add: { 'X-C': '2' } },
      webhook_verification: { provider: 'GitHub', secret: 's3cret' },
      oauth: { provider: { google: {} } },
      saml: { idp_metadata: '<EntityDescriptor entityID="x"></EntityDescriptor>' },
      oidc: { issuer: 'https://idp.example.com', client_id: 'id', client_secret: 'secret' },
      websocket_tcp_converter: {},
    };
    for (const [module, body] of Object.entries(bodies)) {
      if (module === 'saml' || module === 'oidc') await api('DELETE', `${base}/oauth`);
      if (module === 'oidc') await api('DELETE', `${base}/saml`);
      const put = await api('PUT', `${base}/${module}`, body);
      expect(put.status, `${module}: ${JSON.stringify(put.body)}`).toBe(200);
      expect((await api('GET', `${base}/${module}`)).body).toEqual(put.body);
    }
    const read = (await api('GET', base)).body;
    expect(read.webhook_verification).toEqual({
      enabled: true,
      provider: 'github',
      secret: 's3cret',
    });
    expect(read.circuit_breaker).toMatchObject({ num_buckets: 128, tripped_duration: 10 });
    expect(read.oidc).toMatchObject({ cookie_prefix: 'service.', scopes: [] });
    expectError(
      await api('PUT', `${base}/oauth`, { provider: { github: {} } }),
      'conflictingAuthModules',
    );
    expectError(await api('PATCH', base, { saml: bodies.saml }), 'conflictingAuthModules');
    await api('DELETE', `${base}/oidc`);
    const oauth = await api('PUT', `${base}/oauth`, {
      provider: { github: { client_id: 'a', client_secret: 'b', scopes: ['read:org'] } },
    });
    expect(Object.keys(oauth.body.provider).sort()).toEqual([...OAUTH_PROVIDERS].sort());
    expect(oauth.body.provider.google).toBeNull();
    expect(oauth.body.provider.github).toMatchObject({
      client_id: 'a',
      teams: [],
      organizations: [],
    });
    const saml = await api('PUT', `${base}/saml`, bodies.saml).then(() => api('GET', base));
    expect(saml.status).toBe(200);
    for (const module of Object.keys(bodies))
      expect((await api('DELETE', `${base}/${module}`)).status).toBe(204);
    expectError(await api('GET', `${base}/oauth`), 'moduleNotConfigured');
  });

  it('checks module rules: circuit breaker bounds, webhook secrets, OAuth and OIDC fields', async () => {
    const edge = await create('/edges/https');
    const route = (
      await api('POST', `/edges/https/${edge}/routes`, { match_type: 'exact_path', match: '/x' })
    ).body.id;
    const put = (module: string, body: object) =>
      api('PUT', `/edges/https/${edge}/routes/${route}/${module}`, body);
    expectError(await put('circuit_breaker', { num_buckets: 129 }), 'invalidValue');
    expectError(await put('circuit_breaker', { error_threshold_percentage: 50 }), 'invalidValue');
    expectError(
      await put('webhook_verification', { provider: 'nope', secret: 'x' }),
      'webhookProvider',
    );
    expectError(await put('webhook_verification', { provider: 'stripe' }), 'webhookProvider');
    expectError(
      await put('webhook_verification', { provider: 'sns', secret: 'x' }),
      'webhookProvider',
    );
    expect((await put('webhook_verification', { provider: 'SNS' })).body).toEqual({
      enabled: true,
      provider: 'sns',
      secret: '',
    });
    expectError(await put('oauth', { provider: {} }), 'oauthProviderCount');
    expectError(await put('oauth', { provider: { google: {}, github: {} } }), 'oauthProviderCount');
    expectError(
      await put('oauth', { provider: { google: { client_id: 'x' } } }),
      'oauthClientCredentials',
    );
    expectError(
      await put('oauth', { provider: { google: { scopes: ['x'] } } }),
      'oauthClientCredentials',
    );
    expectError(
      await put('oidc', { issuer: 'https://idp.example.com', client_id: 'x' }),
      'missingField',
    );
    expectError(
      await api('POST', `/edges/https/${edge}/routes`, {
        match_type: 'exact_path',
        match: '/y',
        oauth: { provider: { google: {} } },
        oidc: { issuer: 'https://i.example.com', client_id: 'a', client_secret: 'b' },
      }),
      'conflictingAuthModules',
    );
    expectError(
      await api('POST', `/edges/https/${edge}/routes`, { match_type: 'regex', match: '/z' }),
      'invalidValue',
    );
    expectError(
      await api('POST', `/edges/https/${edge}/routes`, { match_type: 'exact_path' }),
      'missingField',
    );
    expectError(
      await api('POST', '/edges/https/edghts_missing/routes', {
        match_type: 'exact_path',
        match: '/',
      }),
      'notFound',
    );
  });

  it('serves the edge modules of HTTPS edges', async () => {
    const ca = await create('/certificate_authorities', { ca_pem: CA_PEM });
    const edge = await create('/edges/https');
    const mtls = await api('PUT', `/edges/https/${edge}/mutual_tls`, {
      certificate_authority_ids: [ca],
    });
    expect(mtls.body.certificate_authorities[0].id).toBe(ca);
    const tls = await api('PUT', `/edges/https/${edge}/tls_termination`, { min_version: '1.3' });
    expect(tls.body).toEqual({ enabled: true, min_version: '1.3' });
    expectError(
      await api('PUT', `/edges/https/${edge}/tls_termination`, { terminate_at: 'upstream' }),
      'unknownField',
    );
    const patched = await api('PATCH', `/edges/https/${edge}`, {
      hostports: ['a.example.com:8443'],
    });
    expect(patched.body).toMatchObject({
      hostports: ['a.example.com:8443'],
      tls_termination: { min_version: '1.3' },
    });
    expectError(await api('DELETE', `/certificate_authorities/${ca}`), 'stillReferenced');
  });
});
