import { describe, expect, it } from 'vitest';
import { moduleBlockedByUpstreamTermination } from '../../../../../shared/api/kinds/edge-modules.ts';
import { parseHostport } from '../../../../../shared/api/values/hosts.ts';
import {
  HTTPSEdgeRoute,
  HTTPSEdgeRouteCreate,
  HTTPSEdgeRouteUpdate,
  MATCH_TYPES,
  ROUTE_MODULES,
} from '../../../../../shared/api/kinds/https-edge-routes.ts';
import {
  HTTPS_EDGE_MODULES,
  HTTPSEdge,
  HTTPSEdgeCreate,
  HTTPSEdgeUpdate,
} from '../../../../../shared/api/kinds/https-edges.ts';
import {
  TLS_EDGE_MODULES,
  TLSEdge,
  TLSEdgeCreate,
  TLSEdgeUpdate,
} from '../../../../../shared/api/kinds/tls-edges.ts';
import { SPEC_ROUTE_MODULES } from '../../../../support/spec.ts';
import { expectAccepted, expectRejected } from '../expect-validation.ts';
import { listed, ref, resource } from '../fixtures.ts';

describe('hostports', () => {
  it.each([
    ['example.com:443', { host: 'example.com', port: 443 }],
    ['Tunnel.Example.com:1', { host: 'tunnel.example.com', port: 1 }],
    ['localhost:65535', { host: 'localhost', port: 65535 }],
    ['192.0.2.1:8443', { host: '192.0.2.1', port: 8443 }],
    ['[2001:db8::1]:443', { host: '[2001:db8::1]', port: 443 }],
  ])('parses %s', (text, parsed) => {
    expect(parseHostport(text)).toEqual(parsed);
  });

  it.each([
    'example.com',
    'example.com:',
    ':443',
    'example.com:0',
    'example.com:65536',
    'example.com:0443',
    'example.com:-1',
    'example.com:4 43',
    'exa mple.com:443',
    '*.example.com:443',
    '2001:db8::1:443',
    '[zz]:443',
    'https://example.com:443',
  ])('refuses %s', (text) => {
    expect(parseHostport(text)).toBeUndefined();
  });
});

describe('TLS edges', () => {
  const edge = {
    ...resource('/edges/tls', 'edgtls_1'),
    hostports: ['tls.example.com:443'],
    backend: { enabled: true, backend: ref('/backends/tunnel_group', 'bkdtg_1') },
    ip_restriction: null,
    mutual_tls: null,
    tls_termination: { enabled: true, terminate_at: 'upstream', min_version: null },
  };

  it('read with every module, unset ones null, unknown fields kept', () => {
    expect(TLSEdge.parse({ ...edge, policy: { inbound: [] } })).toEqual({
      ...edge,
      policy: { inbound: [] },
    });
    expect(Object.keys(TLS_EDGE_MODULES)).toEqual([
      'backend',
      'ip_restriction',
      'mutual_tls',
      'tls_termination',
    ]);
    const { mutual_tls: _, ...withoutMutualTls } = edge;
    expect(TLSEdge.safeParse(withoutMutualTls).success).toBe(false);
    expect(listed('tlsEdges.list', 'tls_edges', [edge])).toHaveLength(1);
  });

  it('create and update take hostports and module write forms, all optional', () => {
    expect(expectAccepted(TLSEdgeCreate, {})).toEqual({});
    const parsed = expectAccepted(TLSEdgeCreate, {
      hostports: ['tls.example.com:443', '[::1]:8443'],
      backend: { backend_id: 'bkdfo_1' },
      ip_restriction: { ip_policy_ids: ['ipp_1'] },
      mutual_tls: { certificate_authority_ids: ['ca_1'], enabled: false },
      tls_termination: { min_version: '1.2' },
    });
    expect(parsed.tls_termination).toEqual({
      enabled: true,
      terminate_at: 'edge',
      min_version: '1.2',
    });
    expect(TLSEdgeUpdate).toBe(TLSEdgeCreate);
  });

  it('refuses bad hostports and modules naming the field path', () => {
    expectRejected(
      TLSEdgeCreate,
      { hostports: ['tls.example.com'] },
      'invalidValue',
      'hostports[0]',
    );
    expectRejected(
      TLSEdgeCreate,
      { hostports: ['a.example.com:443', 'b.example.com:70000'] },
      'invalidValue',
      'hostports[1]',
    );
    expectRejected(TLSEdgeCreate, { backend: {} }, 'missingField', 'backend.backend_id');
    expectRejected(
      TLSEdgeCreate,
      { backend: { backend_id: 'bkdtg_1', weight: 1 } },
      'unknownField',
      'backend.weight',
    );
    expectRejected(
      TLSEdgeCreate,
      { tls_termination: { min_version: '1.9' } },
      'invalidValue',
      'tls_termination.min_version',
    );
    expectRejected(TLSEdgeCreate, { backend: null }, 'invalidValue', 'backend');
    expectRejected(TLSEdgeCreate, { routes: [] }, 'unknownField', 'routes');
  });

  it('refuses mutual TLS with upstream termination (ERR_SERVICE_310) and min_version with it (311)', () => {
    const upstream = { terminate_at: 'upstream' };
    expectAccepted(TLSEdgeCreate, {
      tls_termination: upstream,
      backend: { backend_id: 'bkdtg_1' },
      ip_restriction: { ip_policy_ids: ['ipp_1'] },
    });
    expectRejected(
      TLSEdgeCreate,
      { tls_termination: upstream, mutual_tls: { certificate_authority_ids: ['ca_1'] } },
      'moduleNeedsEdgeTermination',
      'mutual_tls',
    );
    expectRejected(
      TLSEdgeUpdate,
      { tls_termination: { ...upstream, min_version: '1.3' } },
      'minVersionWithUpstream',
      'tls_termination.min_version',
    );
    // Disabled modules do not touch the traffic, so they do not conflict.
    expectAccepted(TLSEdgeCreate, {
      tls_termination: upstream,
      mutual_tls: { certificate_authority_ids: ['ca_1'], enabled: false },
    });
    expectAccepted(TLSEdgeCreate, {
      tls_termination: { ...upstream, enabled: false },
      mutual_tls: { certificate_authority_ids: ['ca_1'] },
    });
  });

  it('moduleBlockedByUpstreamTermination checks merged edges too', () => {
    const mutualTls = { enabled: true };
    expect(
      moduleBlockedByUpstreamTermination({
        tls_termination: { enabled: true, terminate_at: 'upstream' },
        mutual_tls: mutualTls,
      }),
    ).toBe('mutual_tls');
    expect(
      moduleBlockedByUpstreamTermination({
        tls_termination: { enabled: true, terminate_at: 'edge' },
        mutual_tls: mutualTls,
      }),
    ).toBeUndefined();
    expect(
      moduleBlockedByUpstreamTermination({ tls_termination: null, mutual_tls: mutualTls }),
    ).toBeUndefined();
    expect(
      moduleBlockedByUpstreamTermination({
        tls_termination: { enabled: true, terminate_at: 'upstream' },
        mutual_tls: null,
      }),
    ).toBeUndefined();
  });
});

describe('HTTPS edge routes', () => {
  const route = {
    ...resource('/edges/https/edghts_1/routes', 'edghtsrt_1'),
    edge_id: 'edghts_1',
    match_type: 'path_prefix',
    match: '/api',
    ...Object.fromEntries(Object.keys(ROUTE_MODULES).map((m) => [m, null])),
    compression: { enabled: true },
  };

  it('have every route module of the spec', () => {
    expect(Object.keys(ROUTE_MODULES)).toEqual(SPEC_ROUTE_MODULES);
  });

  it('read with their edge id and modules', () => {
    expect(HTTPSEdgeRoute.parse(route)).toEqual(route);
    expect(HTTPSEdgeRoute.safeParse({ ...route, id: 'edghts_2' }).success).toBe(false);
    expect(HTTPSEdgeRoute.safeParse({ ...route, edge_id: 'edghtsrt_2' }).success).toBe(false);
    expect(HTTPSEdgeRoute.safeParse({ ...route, match_type: 'regex' }).success).toBe(false);
  });

  it('need match_type and match on create', () => {
    expect(MATCH_TYPES).toEqual(['exact_path', 'path_prefix']);
    for (const match_type of MATCH_TYPES)
      expectAccepted(HTTPSEdgeRouteCreate, { match_type, match: '/' });
    expectAccepted(HTTPSEdgeRouteCreate, {
      match_type: 'exact_path',
      match: 'app.example.com/login',
    });
    expectRejected(HTTPSEdgeRouteCreate, { match: '/' }, 'missingField', 'match_type');
    expectRejected(HTTPSEdgeRouteCreate, { match_type: 'exact_path' }, 'missingField', 'match');
    expectRejected(
      HTTPSEdgeRouteCreate,
      { match_type: 'regex', match: '/' },
      'invalidValue',
      'match_type',
    );
    expectRejected(
      HTTPSEdgeRouteCreate,
      { match_type: 'exact_path', match: '' },
      'invalidValue',
      'match',
    );
    expectRejected(
      HTTPSEdgeRouteCreate,
      { match_type: 'exact_path', match: '/a b' },
      'invalidValue',
      'match',
    );
    expectRejected(
      HTTPSEdgeRouteCreate,
      { match_type: 'exact_path', match: '/', edge_id: 'edghts_1' },
      'unknownField',
      'edge_id',
    );
  });

  it('take every module write form', () => {
    const parsed = expectAccepted(HTTPSEdgeRouteCreate, {
      match_type: 'path_prefix',
      match: '/',
      backend: { backend_id: 'bkdhr_1' },
      ip_restriction: { ip_policy_ids: ['ipp_1'] },
      circuit_breaker: { num_buckets: 20 },
      compression: {},
      request_headers: { add: { 'X-A': '1' } },
      response_headers: { remove: ['Server'] },
      webhook_verification: { provider: 'Stripe', secret: 'whsec' },
      oidc: { issuer: 'https://idp.example.com', client_id: 'a', client_secret: 'b' },
      websocket_tcp_converter: { enabled: false },
    });
    expect(parsed.webhook_verification?.provider).toBe('stripe');
    expect(parsed.compression).toEqual({ enabled: true });
  });

  it('refuse more than one of oauth, oidc and saml (ERR_SERVICE_312)', () => {
    const oauth = { provider: { google: {} } };
    const oidc = { issuer: 'https://idp.example.com', client_id: 'a', client_secret: 'b' };
    const saml = { idp_metadata: '<EntityDescriptor/>' };
    const base = { match_type: 'exact_path', match: '/' };
    for (const one of [{ oauth }, { oidc }, { saml }])
      expectAccepted(HTTPSEdgeRouteCreate, { ...base, ...one });
    expectRejected(
      HTTPSEdgeRouteCreate,
      { ...base, oauth, oidc },
      'conflictingAuthModules',
      'oidc',
    );
    expectRejected(
      HTTPSEdgeRouteCreate,
      { ...base, oauth, saml },
      'conflictingAuthModules',
      'saml',
    );
    expectRejected(HTTPSEdgeRouteUpdate, { oidc, saml }, 'conflictingAuthModules', 'saml');
    expectRejected(HTTPSEdgeRouteUpdate, { oauth, oidc, saml }, 'conflictingAuthModules', 'oidc');
  });

  it('update with every field optional', () => {
    expect(expectAccepted(HTTPSEdgeRouteUpdate, {})).toEqual({});
    expectAccepted(HTTPSEdgeRouteUpdate, { match: '/v2' });
    expectRejected(HTTPSEdgeRouteUpdate, { match_type: 'prefix' }, 'invalidValue', 'match_type');
  });

  it('name nested fields in errors', () => {
    const base = { match_type: 'exact_path', match: '/' };
    expect(
      expectRejected(
        HTTPSEdgeRouteCreate,
        { ...base, backend: { backend_id: 'nope' } },
        'invalidValue',
        'backend.backend_id',
      ),
    ).toBe('"backend.backend_id" must be an id starting with "bkdfo_", "bkdhr_" or "bkdtg_"');
    expectRejected(
      HTTPSEdgeRouteCreate,
      { ...base, circuit_breaker: { num_buckets: 0 } },
      'invalidValue',
      'circuit_breaker.num_buckets',
    );
    expectRejected(
      HTTPSEdgeRouteCreate,
      { ...base, oauth: { provider: { github: { client_id: 'x' } } } },
      'oauthClientCredentials',
      'oauth.provider.github.client_secret',
    );
    expectRejected(
      HTTPSEdgeRouteCreate,
      { ...base, webhook_verification: { provider: 'github' } },
      'webhookProvider',
      'webhook_verification.secret',
    );
  });
});

describe('HTTPS edges', () => {
  const edge = {
    ...resource('/edges/https', 'edghts_1'),
    hostports: ['app.example.com:443'],
    mutual_tls: {
      enabled: true,
      certificate_authorities: [ref('/certificate_authorities', 'ca_1')],
    },
    tls_termination: { enabled: true, min_version: '1.2' },
    routes: [],
  };

  it('read with their routes and modules', () => {
    expect(Object.keys(HTTPS_EDGE_MODULES)).toEqual(['mutual_tls', 'tls_termination']);
    expect(HTTPSEdge.parse(edge)).toEqual(edge);
    expect(HTTPSEdge.safeParse({ ...edge, routes: undefined }).success).toBe(false);
    expect(listed('httpsEdges.list', 'https_edges', [edge])).toEqual([edge]);
  });

  it('create and update with the at-edge TLS termination', () => {
    expectAccepted(HTTPSEdgeCreate, {
      hostports: ['app.example.com:443'],
      mutual_tls: { certificate_authority_ids: ['ca_1'] },
      tls_termination: { min_version: '1.3' },
    });
    expectRejected(
      HTTPSEdgeCreate,
      { tls_termination: { terminate_at: 'upstream' } },
      'unknownField',
      'tls_termination.terminate_at',
    );
    expectRejected(
      HTTPSEdgeCreate,
      { backend: { backend_id: 'bkdtg_1' } },
      'unknownField',
      'backend',
    );
    expectRejected(HTTPSEdgeCreate, { routes: [] }, 'unknownField', 'routes');
    expect(HTTPSEdgeUpdate).toBe(HTTPSEdgeCreate);
  });
});
