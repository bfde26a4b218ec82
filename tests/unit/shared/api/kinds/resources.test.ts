import { describe, expect, it } from 'vitest';
import {
  ABUSE_REPORT_HOSTNAME_STATUSES,
  ABUSE_REPORT_STATUSES,
  AbuseReport,
  AbuseReportCreate,
} from '../../../../../shared/api/kinds/abuse-reports.ts';
import { Ref } from '../../../../../shared/api/values/common.ts';
import { endpoint } from '../../../../../shared/api/catalog/endpoints.ts';
import { ErrorBody } from '../../../../../shared/api/errors/error-body.ts';
import { listEnvelope, listQuerySchema } from '../../../../../shared/api/catalog/list.ts';
import {
  TUNNEL_TRANSPORTS,
  TunnelSession,
  TunnelSessionCommand,
} from '../../../../../shared/api/kinds/tunnel-sessions.ts';
import { validateQuery } from '../../../../../shared/api/errors/validate.ts';
import { expectAccepted, expectRejected } from '../expect-validation.ts';
import {
  CA_PEM,
  collectionSchemas,
  listed,
  listOf,
  PUBLIC_KEYS,
  ref,
  resource,
} from '../fixtures.ts';

describe('IP policies', () => {
  const ipPolicies = collectionSchemas('ipPolicies');
  const policy = {
    ...resource('/ip_policies', 'ipp_1'),
    description: 'office',
    metadata: '{"a":1}',
  };

  it('reads a policy and keeps fields a newer version adds', () => {
    expect(ipPolicies.item.parse({ ...policy, rules: [], added_later: { x: 1 } })).toEqual({
      ...policy,
      rules: [],
      added_later: { x: 1 },
    });
    expect(ipPolicies.item.parse(resource('/ip_policies', 'ipp_2'))).toEqual(
      resource('/ip_policies', 'ipp_2'),
    );
  });

  it('reads created_at only as UTC', () => {
    expect(
      ipPolicies.item.safeParse({ ...policy, created_at: '2025-01-31T13:00:00+01:00' }).success,
    ).toBe(false);
  });

  it('creates and updates with description and metadata only', () => {
    expect(expectAccepted(ipPolicies.create, {})).toEqual({});
    expectAccepted(ipPolicies.update, { description: 'd', metadata: 'm' });
    expect(
      expectRejected(ipPolicies.create, { descriptin: 'typo' }, 'unknownField', 'descriptin'),
    ).toBe('unknown field "descriptin"');
  });

  it('lists under ip_policies', () => {
    const IPPolicyList = endpoint('ipPolicies.list').response;
    const list = listOf('ip_policies', '/ip_policies', [policy]);
    expect(IPPolicyList.parse(list)).toEqual(list);
    expect(
      IPPolicyList.safeParse({
        ...list,
        next_page_uri: 'https://api.example.com/ip_policies?before_id=ipp_1',
      }).success,
    ).toBe(true);
    expect(IPPolicyList.safeParse({ items: [], uri: list.uri, next_page_uri: null }).success).toBe(
      false,
    );
  });
});

describe('list envelope and query', () => {
  it('builds envelopes with a resource-specific key', () => {
    const schema = listEnvelope('things', Ref);
    expect(Object.keys(schema.shape)).toEqual(['things', 'uri', 'next_page_uri']);
    expect(
      schema.safeParse({ things: [], uri: 'https://x.example/things', next_page_uri: null })
        .success,
    ).toBe(true);
    expect(schema.safeParse({ things: [], uri: 'https://x.example/things' }).success).toBe(false);
  });

  it('takes limit from 1 to 100, default 100', () => {
    const query = listQuerySchema('ipPolicy');
    expect(validateQuery(query, {})).toEqual({ ok: true, value: { limit: 100 } });
    expect(validateQuery(query, { limit: '1' })).toEqual({ ok: true, value: { limit: 1 } });
    expect(validateQuery(query, { limit: '100', before_id: 'ipp_9' })).toEqual({
      ok: true,
      value: { limit: 100, before_id: 'ipp_9' },
    });
    for (const limit of ['0', '101', '-1', '1.5', '01', ' 5', '1e1', '', 'ten']) {
      const result = validateQuery(query, { limit });
      expect(result.ok ? undefined : result.error.name).toBe('invalidLimit');
    }
  });

  it('takes before_id of the listed kind only', () => {
    const query = listQuerySchema('credential');
    for (const before_id of ['sshcr_1', 'ipp_1', 'cr_', 'garbage']) {
      const result = validateQuery(query, { before_id });
      expect(result.ok ? undefined : result.error.code).toBe('ERR_SERVICE_321');
    }
  });

  it('answers an unknown query parameter with ERR_SERVICE_231', () => {
    const result = validateQuery(listQuerySchema('ipPolicy'), { page: '2' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'ERR_SERVICE_231', field: 'page', msg: 'unknown query parameter "page"' },
    });
  });
});

describe('credentials', () => {
  const credentials = collectionSchemas('credentials');
  const sshCredentials = collectionSchemas('sshCredentials');
  const sshCredential = {
    ...resource('/ssh_credentials', 'sshcr_1'),
    public_key: PUBLIC_KEYS.rsa,
    acl: ['bind:*.example.com'],
    owner_id: 'usr_1',
  };
  const credential = {
    ...resource('/credentials', 'cr_1'),
    acl: [],
    owner_id: 'bot_1',
    token: null,
  };

  it('creates an SSH credential from a public key, owned by a user or a bot', () => {
    expectAccepted(sshCredentials.create, {
      public_key: PUBLIC_KEYS.ecdsa256,
      acl: ['*'],
      owner_id: 'bot_1',
    });
    expectRejected(sshCredentials.create, { acl: [] }, 'missingField', 'public_key');
    expectRejected(
      sshCredentials.create,
      { public_key: 'ssh-rsa AAAAB3' },
      'invalidPublicKey',
      'public_key',
    );
    expectRejected(
      sshCredentials.create,
      { public_key: PUBLIC_KEYS.rsa, owner_id: 'cr_1' },
      'invalidReference',
      'owner_id',
    );
    expectRejected(
      sshCredentials.create,
      { public_key: PUBLIC_KEYS.rsa, owner_id: 'alice' },
      'invalidValue',
      'owner_id',
    );
  });

  it('refuses owner_id and public_key on update', () => {
    expectRejected(sshCredentials.update, { owner_id: 'usr_1' }, 'unknownField', 'owner_id');
    expectRejected(
      sshCredentials.update,
      { public_key: PUBLIC_KEYS.rsa },
      'unknownField',
      'public_key',
    );
    expectRejected(credentials.update, { owner_id: 'usr_1' }, 'unknownField', 'owner_id');
    expectAccepted(credentials.update, { acl: ['bind:env=prod'], description: 'ci' });
  });

  it('creates a tunnel credential with everything optional', () => {
    expect(expectAccepted(credentials.create, {})).toEqual({});
    expectAccepted(credentials.create, {
      owner_id: 'usr_abc',
      acl: ['bind:a.example.com'],
      metadata: '{}',
    });
    expectRejected(credentials.create, { token: 'x' }, 'unknownField', 'token');
  });

  it('returns the token in the create response only', () => {
    expect(credentials.created.parse({ ...credential, token: 'secret' }).token).toBe('secret');
    expect(credentials.created.safeParse(credential).success).toBe(false);
    expect(credentials.item.parse(credential)).toEqual(credential);
    expect(credentials.item.safeParse({ ...credential, token: 'secret' }).success).toBe(false);
    expect(listed('credentials.list', 'credentials', [credential])).toHaveLength(1);
  });

  it('reads SSH credentials, keeping unknown fields', () => {
    expect(sshCredentials.item.parse({ ...sshCredential, extra: true })).toEqual({
      ...sshCredential,
      extra: true,
    });
  });
});

describe('agent ingresses', () => {
  const agentIngresses = collectionSchemas('agentIngresses');
  it('takes a domain on create only', () => {
    expectAccepted(agentIngresses.create, { domain: 'connect.example.com', description: 'eu' });
    expectRejected(agentIngresses.create, {}, 'missingField', 'domain');
    for (const domain of [
      'not a domain',
      '*.example.com',
      'example.com.',
      '-x.example.com',
      'https://example.com',
    ])
      expectRejected(agentIngresses.create, { domain }, 'invalidValue', 'domain');
    expectRejected(
      agentIngresses.update,
      { domain: 'other.example.com' },
      'unknownField',
      'domain',
    );
  });

  it('reads and lists under ingresses', () => {
    const ingress = {
      ...resource('/agent_ingresses', 'agin_1'),
      domain: 'connect.example.com',
      ns_targets: ['ns1.service.example', 'ns2.service.example'],
      region_domains: ['eu.connect.example.com'],
    };
    expect(agentIngresses.item.parse(ingress)).toEqual(ingress);
    expect(listed('agentIngresses.list', 'ingresses', [ingress])).toEqual([ingress]);
  });
});

describe('backends', () => {
  const failoverBackends = collectionSchemas('failoverBackends');
  const httpResponseBackends = collectionSchemas('httpResponseBackends');
  const tunnelGroupBackends = collectionSchemas('tunnelGroupBackends');
  it('orders failover children, each a backend id', () => {
    expect(
      expectAccepted(failoverBackends.create, { backends: ['bkdtg_1', 'bkdhr_2', 'bkdfo_3'] })
        .backends,
    ).toEqual(['bkdtg_1', 'bkdhr_2', 'bkdfo_3']);
    expectRejected(failoverBackends.create, {}, 'missingField', 'backends');
    expectRejected(failoverBackends.create, { backends: [] }, 'invalidValue', 'backends');
    expectRejected(
      failoverBackends.create,
      { backends: ['bkdtg_1', 'edgtls_1'] },
      'invalidReference',
      'backends[1]',
    );
    expectRejected(
      failoverBackends.create,
      { backends: ['bkdtg_'] },
      'invalidValue',
      'backends[0]',
    );
    expect(expectAccepted(failoverBackends.update, { description: 'x' })).toEqual({
      description: 'x',
    });
    expectRejected(failoverBackends.update, { backends: [] }, 'invalidValue', 'backends');
    expectRejected(failoverBackends.update, { labels: {} }, 'unknownField', 'labels');
    const failover = { ...resource('/backends/failover', 'bkdfo_1'), backends: ['bkdtg_1'] };
    expect(failoverBackends.item.parse(failover)).toEqual(failover);
  });

  it('gives an HTTP response backend a status from 100 to 599 and safe headers', () => {
    expect(expectAccepted(httpResponseBackends.create, {})).toEqual({
      body: '',
      headers: {},
      status_code: 200,
    });
    for (const status_code of [100, 204, 599])
      expectAccepted(httpResponseBackends.create, { status_code });
    for (const status_code of [99, 600, 200.5, '200'])
      expectRejected(httpResponseBackends.create, { status_code }, 'invalidValue', 'status_code');
    expectAccepted(httpResponseBackends.create, {
      body: 'maintenance',
      headers: { 'Content-Type': 'text/plain', 'Retry-After': '60' },
    });
    expectRejected(
      httpResponseBackends.create,
      { headers: { 'X-A': 'a\r\nSet-Cookie: x' } },
      'invalidValue',
      'headers.X-A',
    );
    expectRejected(
      httpResponseBackends.create,
      { headers: { 'X A': 'a' } },
      'invalidValue',
      'headers["X A"]',
    );
    // An update leaves out what it does not name: no defaults.
    expect(expectAccepted(httpResponseBackends.update, { body: 'x' })).toEqual({ body: 'x' });
    const backend = {
      ...resource('/backends/http_response', 'bkdhr_1'),
      body: '',
      headers: {},
      status_code: 503,
    };
    expect(httpResponseBackends.item.parse(backend)).toEqual(backend);
  });

  it('selects tunnels of a tunnel group by at least one label', () => {
    expectAccepted(tunnelGroupBackends.create, {
      labels: { env: 'prod', 'dc.region': 'eu-west_1' },
    });
    expectRejected(tunnelGroupBackends.create, {}, 'missingField', 'labels');
    expectRejected(tunnelGroupBackends.create, { labels: {} }, 'invalidValue', 'labels');
    expectRejected(
      tunnelGroupBackends.create,
      { labels: { env: 'a b' } },
      'invalidValue',
      'labels.env',
    );
    expect(expectAccepted(tunnelGroupBackends.update, { description: 'x' })).toEqual({
      description: 'x',
    });
    expectRejected(tunnelGroupBackends.update, { labels: {} }, 'invalidValue', 'labels');
    const group = {
      ...resource('/backends/tunnel_group', 'bkdtg_1'),
      labels: { env: 'prod' },
      tunnels: [],
    };
    expect(tunnelGroupBackends.item.parse(group)).toEqual(group);
  });
});

describe('certificate authorities', () => {
  const certificateAuthorities = collectionSchemas('certificateAuthorities');
  it('are created from one PEM certificate', () => {
    expectAccepted(certificateAuthorities.create, { ca_pem: CA_PEM, description: 'corp' });
    expectAccepted(certificateAuthorities.create, { ca_pem: CA_PEM.replaceAll('\n', '\r\n') });
    expectRejected(certificateAuthorities.create, {}, 'missingField', 'ca_pem');
    for (const ca_pem of [
      '',
      'MIIB',
      CA_PEM.replace('CERTIFICATE', 'PUBLIC KEY'),
      CA_PEM + CA_PEM,
      CA_PEM.replace('MIIB', 'MI*B'),
    ])
      expectRejected(certificateAuthorities.create, { ca_pem }, 'invalidValue', 'ca_pem');
    expectRejected(certificateAuthorities.update, { ca_pem: CA_PEM }, 'unknownField', 'ca_pem');
  });

  it('read with the fields derived from the certificate', () => {
    const ca = {
      ...resource('/certificate_authorities', 'ca_1'),
      ca_pem: CA_PEM,
      subject_common_name: 'Burrow Test CA',
      not_before: '2026-11-21T22:28:30Z',
      not_after: '2036-11-18T22:28:30Z',
      key_usages: ['cert_sign'],
      extended_key_usages: [],
    };
    expect(certificateAuthorities.item.parse(ca)).toEqual(ca);
    expect(certificateAuthorities.item.safeParse({ ...ca, id: 'sshca_1' }).success).toBe(false);
  });
});

describe('tunnel sessions', () => {
  const session = {
    id: 'ts_1',
    uri: 'https://api.example.com/tunnel_sessions/ts_1',
    agent_version: '3.1.0',
    credential: ref('/credentials', 'cr_1'),
    ip: '203.0.113.7',
    metadata: '{"host":"build-1"}',
    os: 'linux',
    region: 'eu',
    started_at: '2025-01-31T12:00:00Z',
    transport: 'service/v2',
  };

  it('read with either transport', () => {
    expect(TUNNEL_TRANSPORTS).toEqual(['service/v2', 'ssh']);
    expect(TunnelSession.parse(session)).toEqual(session);
    expect(
      TunnelSession.parse({
        ...session,
        transport: 'ssh',
        credential: ref('/ssh_credentials', 'sshcr_1'),
      }).transport,
    ).toBe('ssh');
    for (const transport of ['service/v3', 'SSH', 'tcp'])
      expect(TunnelSession.safeParse({ ...session, transport }).success).toBe(false);
    expect(listed('tunnelSessions.list', 'tunnel_sessions', [session])).toHaveLength(1);
  });

  it('takes an empty JSON object for every command', () => {
    expect(expectAccepted(TunnelSessionCommand, {})).toEqual({});
    expectRejected(TunnelSessionCommand, { force: true }, 'unknownField', 'force');
    expectRejected(TunnelSessionCommand, null, 'invalidJsonBody');
    expectRejected(TunnelSessionCommand, [], 'invalidJsonBody');
  });
});

describe('abuse reports', () => {
  it('are created from at least one http(s) URL', () => {
    expectAccepted(AbuseReportCreate, {
      urls: ['https://phish.example.com/login', 'http://10.0.0.1:8080/x'],
      metadata: 'ticket 7',
    });
    expectRejected(AbuseReportCreate, {}, 'missingField', 'urls');
    expectRejected(AbuseReportCreate, { urls: [] }, 'invalidValue', 'urls');
    for (const url of [
      'ftp://example.com/x',
      'javascript:alert(1)',
      'example.com',
      'mailto:a@example.com',
      'file:///etc/passwd',
    ])
      expectRejected(
        AbuseReportCreate,
        { urls: ['https://ok.example.com', url] },
        'abuseReportUrl',
        'urls[1]',
      );
    expectRejected(
      AbuseReportCreate,
      { urls: ['https://a.example.com'], metadata: 'm'.repeat(4097) },
      'metadataTooLong',
      'metadata',
    );
    expectRejected(
      AbuseReportCreate,
      { urls: ['https://a.example.com'], description: 'x' },
      'unknownField',
      'description',
    );
  });

  it('read with their statuses', () => {
    expect(ABUSE_REPORT_STATUSES).toEqual(['PENDING', 'PROCESSED', 'PARTIALLY_PROCESSED']);
    expect(ABUSE_REPORT_HOSTNAME_STATUSES).toEqual(['PENDING', 'BANNED', 'UNBANNED', 'IGNORE']);
    const report = {
      ...resource('/abuse_reports', 'abrp_1'),
      urls: ['https://phish.example.com/login'],
      status: 'PARTIALLY_PROCESSED',
      hostnames: [{ hostname: 'phish.example.com', status: 'BANNED' }],
    };
    expect(AbuseReport.parse(report)).toEqual(report);
    for (const status of ABUSE_REPORT_STATUSES)
      expect(AbuseReport.safeParse({ ...report, status }).success).toBe(true);
    for (const status of ABUSE_REPORT_HOSTNAME_STATUSES)
      expect(
        AbuseReport.safeParse({ ...report, hostnames: [{ hostname: 'h', status }] }).success,
      ).toBe(true);
    expect(AbuseReport.safeParse({ ...report, status: 'DONE' }).success).toBe(false);
    expect(AbuseReport.safeParse({ ...report, status: 'pending' }).success).toBe(false);
    expect(
      AbuseReport.safeParse({ ...report, hostnames: [{ hostname: 'h', status: 'IGNORED' }] })
        .success,
    ).toBe(false);
  });
});

describe('error body', () => {
  const body = {
    error_code: 'ERR_SERVICE_218',
    status_code: 400,
    msg: 'Set the Service-Version header; supported: 2',
    details: { operation_id: 'op_abc' },
  };

  it('reads errors, keeping unknown fields', () => {
    expect(ErrorBody.parse(body)).toEqual(body);
    expect(
      ErrorBody.parse({ ...body, details: { ...body.details, field: 'limit', extra: 1 } }).details,
    ).toEqual({ operation_id: 'op_abc', field: 'limit', extra: 1 });
  });

  it('needs the code form and an operation id', () => {
    expect(ErrorBody.safeParse({ ...body, error_code: 'ERR_OTHER_1' }).success).toBe(false);
    expect(ErrorBody.safeParse({ ...body, details: {} }).success).toBe(false);
    expect(ErrorBody.safeParse({ ...body, status_code: '400' }).success).toBe(false);
  });
});
