import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  endpoint,
  endpointPath,
  ENDPOINTS,
  type BodyOf,
  type EndpointName,
  type ParsedBodyOf,
  type PathParamsOf,
  type ResponseOf,
} from '../../../../../shared/api/catalog/endpoints.ts';
import { ID_PREFIXES } from '../../../../../shared/api/values/ids.ts';
import { TUNNEL_SESSION_COMMANDS } from '../../../../../shared/api/kinds/tunnel-sessions.ts';
import { ROUTE_MODULES } from '../../../../../shared/api/kinds/https-edge-routes.ts';
import { HTTPS_EDGE_MODULES } from '../../../../../shared/api/kinds/https-edges.ts';
import { TLS_EDGE_MODULES } from '../../../../../shared/api/kinds/tls-edges.ts';
import { SPEC_ROUTE_MODULES } from '../../../../support/spec.ts';

const crud = (path: string) => [
  `POST ${path}`,
  `GET ${path}`,
  `GET ${path}/{id}`,
  `PATCH ${path}/{id}`,
  `DELETE ${path}/{id}`,
];
const modules = (parent: string, names: readonly string[]) =>
  names.flatMap((m) => [`PUT ${parent}/${m}`, `GET ${parent}/${m}`, `DELETE ${parent}/${m}`]);
const ROUTE = '/edges/https/{edge_id}/routes/{id}';

/** The collections with the five operations each (IP policy rules from the gap note). */
const COLLECTIONS = [
  '/ip_policies',
  '/ip_policy_rules',
  '/ssh_certificate_authorities',
  '/ssh_user_certificates',
  '/ssh_host_certificates',
  '/ssh_credentials',
  '/credentials',
  '/agent_ingresses',
  '/backends/failover',
  '/backends/http_response',
  '/backends/tunnel_group',
  '/certificate_authorities',
  '/edges/tls',
  '/edges/https',
];

/** Every operation of the API spec. */
const SPEC_OPERATIONS = [
  ...COLLECTIONS.flatMap(crud),
  ...modules('/edges/tls/{id}', ['backend', 'ip_restriction', 'mutual_tls', 'tls_termination']),
  ...modules('/edges/https/{id}', ['mutual_tls', 'tls_termination']),
  'POST /edges/https/{edge_id}/routes',
  `GET ${ROUTE}`,
  `PATCH ${ROUTE}`,
  `DELETE ${ROUTE}`,
  ...modules(ROUTE, SPEC_ROUTE_MODULES),
  'GET /tunnel_sessions',
  'GET /tunnel_sessions/{id}',
  'POST /tunnel_sessions/{id}/restart',
  'POST /tunnel_sessions/{id}/stop',
  'POST /tunnel_sessions/{id}/update',
  'POST /abuse_reports',
  'GET /abuse_reports/{id}',
];

describe('ENDPOINTS', () => {
  it('holds every operation of the spec and the gap note, and no other', () => {
    expect(ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
      [...SPEC_OPERATIONS].sort(),
    );
  });

  it('has unique names and unique method + path pairs', () => {
    expect(new Set(ENDPOINTS.map((e) => e.name)).size).toBe(ENDPOINTS.length);
    expect(new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size).toBe(ENDPOINTS.length);
  });

  it('names operations as asked', () => {
    const names = ENDPOINTS.map((e) => e.name);
    for (const name of [
      'ipPolicies.create',
      'ipPolicies.list',
      'ipPolicies.get',
      'ipPolicies.update',
      'ipPolicies.delete',
      'tlsEdges.backend.replace',
      'tlsEdges.backend.get',
      'tlsEdges.backend.delete',
      'httpsEdges.tls_termination.replace',
      'httpsEdgeRoutes.create',
      'httpsEdgeRoutes.get',
      'httpsEdgeRoutes.update',
      'httpsEdgeRoutes.delete',
      'httpsEdgeRoutes.oauth.replace',
      'httpsEdgeRoutes.oauth.get',
      'httpsEdgeRoutes.oauth.delete',
      'tunnelSessions.list',
      'tunnelSessions.get',
      'tunnelSessions.restart',
      'tunnelSessions.stop',
      'tunnelSessions.update',
      'abuseReports.create',
      'abuseReports.get',
      'certificateAuthorities.create',
      'httpResponseBackends.list',
      'tunnelGroupBackends.delete',
      'failoverBackends.update',
      'agentIngresses.get',
    ])
      expect(names).toContain(name);
    expect(endpoint('httpsEdgeRoutes.get').path).toBe(ROUTE);
  });

  it('gives each list its array key', () => {
    const lists = Object.fromEntries(
      ENDPOINTS.flatMap((e) => ('listKey' in e ? [[e.name, e.listKey]] : [])),
    );
    expect(lists).toEqual({
      'ipPolicies.list': 'ip_policies',
      'ipPolicyRules.list': 'ip_policy_rules',
      'sshCertificateAuthorities.list': 'ssh_certificate_authorities',
      'sshUserCertificates.list': 'ssh_user_certificates',
      'sshHostCertificates.list': 'ssh_host_certificates',
      'sshCredentials.list': 'ssh_credentials',
      'credentials.list': 'credentials',
      'agentIngresses.list': 'ingresses',
      'failoverBackends.list': 'backends',
      'httpResponseBackends.list': 'backends',
      'tunnelGroupBackends.list': 'backends',
      'certificateAuthorities.list': 'certificate_authorities',
      'tlsEdges.list': 'tls_edges',
      'httpsEdges.list': 'https_edges',
      'tunnelSessions.list': 'tunnel_sessions',
    });
  });

  it.each(ENDPOINTS.map((e) => [e.name, e] as const))('%s is consistent', (_, e) => {
    // Statuses: 201 create, 204 delete and commands, 200 the rest.
    const expectedStatus = e.name.endsWith('.create')
      ? 201
      : e.method === 'DELETE' || (e.name.startsWith('tunnelSessions.') && e.method === 'POST')
        ? 204
        : 200;
    expect(e.status).toBe(expectedStatus);
    expect(e.response === null).toBe(e.status === 204);
    expect(e.body === null).toBe(e.method === 'GET' || e.method === 'DELETE');
    expect(e.query !== null).toBe('listKey' in e);
    // Every {param} of the path is declared with its id kind, and nothing else is.
    expect(Object.keys(e.pathParams).sort()).toEqual(
      [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
    );
    for (const kind of Object.values(e.pathParams))
      expect(Object.keys(ID_PREFIXES)).toContain(kind);
    if ('listKey' in e && e.response)
      expect(Object.keys((e.response as z.ZodObject).shape)).toContain(e.listKey);
  });

  it('takes the bare module write form on PUT and answers with the read form', () => {
    const tables = {
      tlsEdges: TLS_EDGE_MODULES,
      httpsEdges: HTTPS_EDGE_MODULES,
      httpsEdgeRoutes: ROUTE_MODULES,
    };
    for (const [group, table] of Object.entries(tables))
      for (const [module, forms] of Object.entries(table)) {
        const replace = ENDPOINTS.find((e) => e.name === `${group}.${module}.replace`);
        expect(replace?.body).toBe(forms.write);
        expect(replace?.response).toBe(forms.read);
        expect(ENDPOINTS.find((e) => e.name === `${group}.${module}.get`)?.response).toBe(
          forms.read,
        );
      }
  });

  it('has a POST for every tunnel session command', () => {
    for (const command of TUNNEL_SESSION_COMMANDS)
      expect(endpoint(`tunnelSessions.${command}`)).toMatchObject({
        method: 'POST',
        path: `/tunnel_sessions/{id}/${command}`,
        status: 204,
      });
  });

  it('declares path parameters with their id kinds', () => {
    expect(endpoint('httpsEdgeRoutes.saml.replace').pathParams).toEqual({
      edge_id: 'httpsEdge',
      id: 'httpsEdgeRoute',
    });
    expect(endpoint('httpsEdgeRoutes.create').pathParams).toEqual({ edge_id: 'httpsEdge' });
    expect(endpoint('tunnelSessions.restart').pathParams).toEqual({ id: 'tunnelSession' });
    expect(endpoint('credentials.list').pathParams).toEqual({});
  });

  it('converts every schema to JSON Schema, for the OpenAPI document', () => {
    for (const e of ENDPOINTS) {
      if (e.body) expect(() => z.toJSONSchema(e.body, { io: 'input' })).not.toThrow();
      if (e.response) expect(() => z.toJSONSchema(e.response, { io: 'output' })).not.toThrow();
      if (e.query) expect(() => z.toJSONSchema(e.query, { io: 'input' })).not.toThrow();
    }
  });
});

describe('endpointPath', () => {
  it('fills in and encodes path parameters', () => {
    expect(endpointPath('ipPolicies.get', { id: 'ipp_1' })).toBe('/ip_policies/ipp_1');
    expect(
      endpointPath('httpsEdgeRoutes.oauth.delete', { edge_id: 'edghts_1', id: 'edghtsrt_2' }),
    ).toBe('/edges/https/edghts_1/routes/edghtsrt_2/oauth');
    expect(endpointPath('tunnelSessions.stop', { id: 'a/b?' })).toBe(
      '/tunnel_sessions/a%2Fb%3F/stop',
    );
    expect(endpointPath('credentials.list', {})).toBe('/credentials');
  });
});

describe('catalog types', () => {
  it('give each endpoint its body, response and path parameter types', () => {
    expectTypeOf<BodyOf<'ipPolicies.create'>>().toEqualTypeOf<{
      description?: string | undefined;
      metadata?: string | undefined;
    }>();
    expectTypeOf<BodyOf<'ipPolicies.get'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ResponseOf<'ipPolicies.delete'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ResponseOf<'credentials.create'>['token']>().toEqualTypeOf<string>();
    expectTypeOf<ResponseOf<'credentials.get'>['token']>().toEqualTypeOf<null>();
    expectTypeOf<ResponseOf<'tlsEdges.list'>['tls_edges'][number]['id']>().toEqualTypeOf<string>();
    expectTypeOf<PathParamsOf<'httpsEdgeRoutes.oauth.replace'>>().toEqualTypeOf<{
      readonly edge_id: string;
      readonly id: string;
    }>();
    expectTypeOf<PathParamsOf<'tunnelSessions.restart'>>().toEqualTypeOf<{ readonly id: string }>();
    expectTypeOf<BodyOf<'tunnelSessions.update'>>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<PathParamsOf<'abuseReports.create'>>().toEqualTypeOf<Record<never, never>>();
    expectTypeOf<BodyOf<'httpsEdgeRoutes.circuit_breaker.replace'>['num_buckets']>().toEqualTypeOf<
      number | undefined
    >();
    expectTypeOf<
      ParsedBodyOf<'httpsEdgeRoutes.circuit_breaker.replace'>['num_buckets']
    >().toEqualTypeOf<number>();
    expectTypeOf<
      ResponseOf<'httpsEdgeRoutes.webhook_verification.get'>['provider']
    >().toEqualTypeOf<string>();
    expectTypeOf<
      ParsedBodyOf<'httpsEdgeRoutes.webhook_verification.replace'>['provider']
    >().toExtend<string>();
    expectTypeOf<'tunnelSessions.restart'>().toExtend<EndpointName>();
    expectTypeOf<'tunnelSessions.list'>().toExtend<EndpointName>();
    expectTypeOf<'httpsEdgeRoutes.list'>().not.toExtend<EndpointName>();
  });
});
