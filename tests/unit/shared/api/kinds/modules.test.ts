import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  DEFAULT_COOKIE_PREFIX,
  EndpointOAuth,
  EndpointOAuthMutate,
  EndpointOIDC,
  EndpointOIDCMutate,
  EndpointSAML,
  EndpointSAMLMutate,
  OAUTH_PROVIDERS,
  OAUTH_REQUEST_PROVIDERS,
} from '../../../../../shared/api/kinds/auth-modules.ts';
import {
  EndpointBackend,
  EndpointBackendMutate,
  EndpointIPPolicy,
  EndpointIPPolicyMutate,
  EndpointMutualTLS,
  EndpointMutualTLSMutate,
  EndpointTLSTermination,
  EndpointTLSTerminationAtEdge,
  EndpointTLSTerminationAtEdgeMutate,
  EndpointTLSTerminationMutate,
  TLS_VERSIONS,
} from '../../../../../shared/api/kinds/edge-modules.ts';
import {
  CIRCUIT_BREAKER_DEFAULTS,
  EndpointCircuitBreaker,
  EndpointCircuitBreakerMutate,
  EndpointCompression,
  EndpointCompressionMutate,
  EndpointRequestHeadersMutate,
  EndpointResponseHeaders,
  EndpointResponseHeadersMutate,
  EndpointWebhookValidation,
  EndpointWebhookValidationMutate,
  EndpointWebsocketTCPConverter,
  EndpointWebsocketTCPConverterMutate,
} from '../../../../../shared/api/kinds/route-modules.ts';
import type { ErrorName } from '../../../../../shared/api/errors/errors.ts';
import { WEBHOOK_PROVIDERS } from '../../../../../shared/api/kinds/webhook-providers.ts';
import { expectAccepted, expectRejected } from '../expect-validation.ts';
import { ref } from '../fixtures.ts';

/** What OAuth, OIDC and SAML alike fill in when a request leaves it out. */
const AUTH_DEFAULTS = {
  enabled: true,
  options_passthrough: false,
  cookie_prefix: 'service.',
  inactivity_timeout: 0,
  maximum_duration: 0,
};

const IDP_METADATA =
  '<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"></md:EntityDescriptor>';

describe('every module write form', () => {
  const minimal: [string, z.ZodType, object][] = [
    ['backend', EndpointBackendMutate, { backend_id: 'bkdtg_1' }],
    ['ip_restriction', EndpointIPPolicyMutate, { ip_policy_ids: ['ipp_1'] }],
    ['mutual_tls', EndpointMutualTLSMutate, { certificate_authority_ids: ['ca_1'] }],
    ['tls_termination', EndpointTLSTerminationMutate, {}],
    ['tls_termination at edge', EndpointTLSTerminationAtEdgeMutate, {}],
    ['circuit_breaker', EndpointCircuitBreakerMutate, {}],
    ['compression', EndpointCompressionMutate, {}],
    ['request_headers', EndpointRequestHeadersMutate, {}],
    ['response_headers', EndpointResponseHeadersMutate, {}],
    ['webhook_verification', EndpointWebhookValidationMutate, { provider: 'sns' }],
    [
      'oidc',
      EndpointOIDCMutate,
      { issuer: 'https://idp.example.com', client_id: 'id', client_secret: 'secret' },
    ],
    ['oauth', EndpointOAuthMutate, { provider: { google: {} } }],
    ['saml', EndpointSAMLMutate, { idp_metadata: IDP_METADATA }],
    ['websocket_tcp_converter', EndpointWebsocketTCPConverterMutate, {}],
  ];

  it.each(minimal)('%s is enabled unless told otherwise', (_, schema, body) => {
    expect(expectAccepted(schema, body)).toMatchObject({ enabled: true });
    expect(expectAccepted(schema, { ...body, enabled: false })).toMatchObject({ enabled: false });
    expectRejected(schema, { ...body, enabled: 'yes' }, 'invalidValue', 'enabled');
  });

  it.each(minimal)('%s refuses unknown fields', (_, schema, body) => {
    expectRejected(schema, { ...body, colour: 'blue' }, 'unknownField', 'colour');
  });
});

describe('backend, IP restriction and mutual TLS modules', () => {
  it('write ids of the backend kinds', () => {
    for (const backend_id of ['bkdfo_1', 'bkdhr_1', 'bkdtg_1'])
      expectAccepted(EndpointBackendMutate, { backend_id });
  });

  it.each<[string, ErrorName, object, z.ZodType]>([
    ['backend_id', 'missingField', {}, EndpointBackendMutate],
    ['backend_id', 'invalidReference', { backend_id: 'ipp_1' }, EndpointBackendMutate],
    ['ip_policy_ids', 'invalidValue', { ip_policy_ids: [] }, EndpointIPPolicyMutate],
    [
      'ip_policy_ids[1]',
      'invalidReference',
      { ip_policy_ids: ['ipp_1', 'ca_1'] },
      EndpointIPPolicyMutate,
    ],
    [
      'certificate_authority_ids[0]',
      'invalidReference',
      { certificate_authority_ids: ['sshca_1'] },
      EndpointMutualTLSMutate,
    ],
  ])('refuses %s as %s in %j', (field, name, body, schema) => {
    expectRejected(schema, body, name, field);
  });

  it('read as Refs', () => {
    const backend = { enabled: true, backend: ref('/backends/tunnel_group', 'bkdtg_1') };
    expect(EndpointBackend.parse(backend)).toEqual(backend);
    expect(
      EndpointIPPolicy.parse({ enabled: false, ip_policies: [ref('/ip_policies', 'ipp_1')] })
        .ip_policies,
    ).toHaveLength(1);
    expect(
      EndpointMutualTLS.parse({ enabled: true, certificate_authorities: [], extra: 1 }),
    ).toEqual({ enabled: true, certificate_authorities: [], extra: 1 });
    // A Ref to a kind this model does not know yet is still read.
    expect(
      EndpointBackend.safeParse({ enabled: true, backend: ref('/backends/new_kind', 'bkdnew_1') })
        .success,
    ).toBe(true);
  });
});

describe('TLS termination', () => {
  it('terminates at the edge by default, with any of the four versions or null', () => {
    expect(expectAccepted(EndpointTLSTerminationMutate, {})).toEqual({
      enabled: true,
      terminate_at: 'edge',
    });
    for (const min_version of [...TLS_VERSIONS, null])
      expectAccepted(EndpointTLSTerminationMutate, { terminate_at: 'edge', min_version });
    for (const min_version of ['1.4', '1', 'TLS1.2', 1.2, ''])
      expectRejected(EndpointTLSTerminationMutate, { min_version }, 'invalidValue', 'min_version');
    for (const terminate_at of ['agent', 'Edge', null])
      expectRejected(
        EndpointTLSTerminationMutate,
        { terminate_at },
        'invalidValue',
        'terminate_at',
      );
    expect(TLS_VERSIONS).toEqual(['1.0', '1.1', '1.2', '1.3']);
  });

  it('needs min_version null when TLS terminates upstream (ERR_SERVICE_311)', () => {
    expectAccepted(EndpointTLSTerminationMutate, { terminate_at: 'upstream' });
    expectAccepted(EndpointTLSTerminationMutate, { terminate_at: 'upstream', min_version: null });
    expectRejected(
      EndpointTLSTerminationMutate,
      { terminate_at: 'upstream', min_version: '1.2' },
      'minVersionWithUpstream',
      'min_version',
    );
  });

  it('at the edge (HTTPS edges) takes only enabled and min_version', () => {
    expect(expectAccepted(EndpointTLSTerminationAtEdgeMutate, { min_version: '1.3' })).toEqual({
      enabled: true,
      min_version: '1.3',
    });
    expectRejected(
      EndpointTLSTerminationAtEdgeMutate,
      { terminate_at: 'edge' },
      'unknownField',
      'terminate_at',
    );
    expectRejected(
      EndpointTLSTerminationAtEdgeMutate,
      { min_version: '1.4' },
      'invalidValue',
      'min_version',
    );
  });

  it('reads both forms', () => {
    expect(
      EndpointTLSTermination.parse({ enabled: true, terminate_at: 'upstream', min_version: null })
        .min_version,
    ).toBeNull();
    expect(
      EndpointTLSTermination.safeParse({
        enabled: true,
        terminate_at: 'nowhere',
        min_version: null,
      }).success,
    ).toBe(false);
    expect(
      EndpointTLSTerminationAtEdge.parse({
        enabled: true,
        min_version: '1.2',
        terminate_at: 'edge',
      }),
    ).toEqual({ enabled: true, min_version: '1.2', terminate_at: 'edge' });
  });
});

describe('circuit breaker', () => {
  it('fills the defaults', () => {
    expect(expectAccepted(EndpointCircuitBreakerMutate, {})).toEqual({
      enabled: true,
      ...CIRCUIT_BREAKER_DEFAULTS,
    });
  });

  it.each([
    [0, false],
    [1, true],
    [64, true],
    [128, true],
    [129, false],
    [-1, false],
    [1.5, false],
  ])('num_buckets %d: %s', (num_buckets, ok) => {
    expect(EndpointCircuitBreakerMutate.safeParse({ num_buckets }).success).toBe(ok);
  });

  it.each([
    [0, true],
    [0.5, true],
    [1, true],
    [1.01, false],
    [-0.1, false],
    [50, false],
    ['0.5', false],
  ])('error_threshold_percentage %s: %s', (error_threshold_percentage, ok) => {
    expect(EndpointCircuitBreakerMutate.safeParse({ error_threshold_percentage }).success).toBe(ok);
  });

  it.each(['tripped_duration', 'rolling_window', 'volume_threshold'])('%s is a uint32', (field) => {
    for (const value of [0, 1, 2 ** 32 - 1])
      expect(EndpointCircuitBreakerMutate.safeParse({ [field]: value }).success).toBe(true);
    expect(
      expectRejected(EndpointCircuitBreakerMutate, { [field]: -1 }, 'invalidValue', field),
    ).toBe(`"${field}" must be at least 0`);
    expect(
      expectRejected(EndpointCircuitBreakerMutate, { [field]: 1.5 }, 'invalidValue', field),
    ).toBe(`"${field}" must be an integer`);
    expect(
      expectRejected(EndpointCircuitBreakerMutate, { [field]: 2 ** 32 }, 'invalidValue', field),
    ).toBe(`"${field}" must be at most 4294967295`);
    expectRejected(EndpointCircuitBreakerMutate, { [field]: '10' }, 'invalidValue', field);
  });

  it('reads with every field', () => {
    const module = { enabled: true, ...CIRCUIT_BREAKER_DEFAULTS };
    expect(EndpointCircuitBreaker.parse(module)).toEqual(module);
    expect(EndpointCircuitBreaker.safeParse({ enabled: true }).success).toBe(false);
  });
});

describe('compression and websocket TCP converter', () => {
  it('have only enabled', () => {
    expect(EndpointCompression.parse({ enabled: false })).toEqual({ enabled: false });
    expect(EndpointWebsocketTCPConverter.parse({ enabled: true })).toEqual({ enabled: true });
  });
});

describe('request and response headers', () => {
  it.each([
    ['request', EndpointRequestHeadersMutate],
    ['response', EndpointResponseHeadersMutate],
  ])('%s headers add and remove valid header names', (_, schema) => {
    expect(expectAccepted(schema, {})).toEqual({ enabled: true, add: {}, remove: [] });
    expectAccepted(schema, {
      add: { 'X-Burrow': 'yes', 'x-empty': '' },
      remove: ['Server', 'X-Powered-By'],
    });
    expectRejected(schema, { add: { 'X-Burrow': 'a\nb' } }, 'invalidValue', 'add.X-Burrow');
    expect(
      expectRejected(schema, { add: { 'bad header': 'x' } }, 'invalidValue', 'add["bad header"]'),
    ).toContain('must be an HTTP header name');
    expectRejected(schema, { remove: ['Ser ver'] }, 'invalidValue', 'remove[0]');
    expectRejected(schema, { add: ['X-A'] }, 'invalidValue', 'add');
  });

  it('read with add and remove', () => {
    expect(
      EndpointResponseHeaders.parse({ enabled: true, add: { a: 'b' }, remove: ['c'] }),
    ).toEqual({ enabled: true, add: { a: 'b' }, remove: ['c'] });
  });
});

describe('webhook verification', () => {
  it('knows a fixed list of real providers, at least the documented ones', () => {
    expect(WEBHOOK_PROVIDERS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(WEBHOOK_PROVIDERS).size).toBe(WEBHOOK_PROVIDERS.length);
    for (const name of [
      'github',
      'gitlab',
      'slack',
      'stripe',
      'twilio',
      'shopify',
      'sendgrid',
      'zoom',
      'sns',
    ])
      expect(WEBHOOK_PROVIDERS).toContain(name);
    for (const name of WEBHOOK_PROVIDERS) expect(name).toMatch(/^[a-z0-9_]+$/);
  });

  it('matches the provider without case and stores it lower-case', () => {
    expect(
      expectAccepted(EndpointWebhookValidationMutate, { provider: 'GitHub', secret: 's' }),
    ).toEqual({ enabled: true, provider: 'github', secret: 's' });
    expect(expectAccepted(EndpointWebhookValidationMutate, { provider: 'SNS' }).provider).toBe(
      'sns',
    );
  });

  it('refuses an unknown provider with ERR_SERVICE_315', () => {
    for (const provider of ['myspace', ''])
      expectRejected(
        EndpointWebhookValidationMutate,
        { provider, secret: 's' },
        'webhookProvider',
        'provider',
      );
    expectRejected(EndpointWebhookValidationMutate, { secret: 's' }, 'missingField', 'provider');
    expectRejected(
      EndpointWebhookValidationMutate,
      { provider: 7, secret: 's' },
      'invalidValue',
      'provider',
    );
  });

  it('needs a secret for every provider but sns, which takes none', () => {
    for (const provider of WEBHOOK_PROVIDERS.filter((p) => p !== 'sns')) {
      expectAccepted(EndpointWebhookValidationMutate, { provider, secret: 'whsec_1' });
      expectRejected(EndpointWebhookValidationMutate, { provider }, 'webhookProvider', 'secret');
      expectRejected(
        EndpointWebhookValidationMutate,
        { provider, secret: '' },
        'webhookProvider',
        'secret',
      );
    }
    expectAccepted(EndpointWebhookValidationMutate, { provider: 'sns', secret: '' });
    expect(
      expectRejected(
        EndpointWebhookValidationMutate,
        { provider: 'sns', secret: 'x' },
        'webhookProvider',
        'secret',
      ),
    ).toBe('"secret" must not be set for provider "sns"');
  });

  it('reads with provider and secret', () => {
    expect(
      EndpointWebhookValidation.parse({ enabled: true, provider: 'stripe', secret: 'whsec' })
        .provider,
    ).toBe('stripe');
  });
});

describe('OIDC', () => {
  const oidc = { issuer: 'https://accounts.example.com', client_id: 'app', client_secret: 'shh' };

  it('needs issuer, client_id and client_secret', () => {
    for (const field of ['issuer', 'client_id', 'client_secret'] as const) {
      const { [field]: _, ...rest } = oidc;
      expectRejected(EndpointOIDCMutate, rest, 'missingField', field);
      expectRejected(EndpointOIDCMutate, { ...oidc, [field]: '' }, 'invalidValue', field);
    }
    for (const issuer of [
      'accounts.example.com',
      'ftp://accounts.example.com',
      'javascript:alert(1)',
    ])
      expectRejected(EndpointOIDCMutate, { ...oidc, issuer }, 'invalidValue', 'issuer');
  });

  it('fills defaults, cookie_prefix "service."', () => {
    expect(DEFAULT_COOKIE_PREFIX).toBe('service.');
    expect(expectAccepted(EndpointOIDCMutate, oidc)).toEqual({
      ...AUTH_DEFAULTS,
      scopes: [],
      ...oidc,
    });
    expectAccepted(EndpointOIDCMutate, {
      ...oidc,
      scopes: ['openid', 'email'],
      cookie_prefix: 'app_',
      inactivity_timeout: 600,
      maximum_duration: 86400,
    });
    expectRejected(
      EndpointOIDCMutate,
      { ...oidc, cookie_prefix: 'bad prefix' },
      'invalidValue',
      'cookie_prefix',
    );
    expectRejected(
      EndpointOIDCMutate,
      { ...oidc, inactivity_timeout: -5 },
      'invalidValue',
      'inactivity_timeout',
    );
  });

  it('reads, keeping unknown fields', () => {
    const module = {
      ...AUTH_DEFAULTS,
      scopes: [],
      ...oidc,
      extra: 'x',
    };
    expect(EndpointOIDC.parse(module)).toEqual(module);
  });
});

describe('OAuth', () => {
  it('accepts the six request providers', () => {
    const requested = ['github', 'facebook', 'microsoft', 'google', 'linkedin', 'gitlab'];
    expect(OAUTH_REQUEST_PROVIDERS).toEqual(requested);
    for (const name of OAUTH_REQUEST_PROVIDERS)
      expectAccepted(EndpointOAuthMutate, { provider: { [name]: {} } });
  });

  it('refuses the response-only providers in requests', () => {
    for (const name of ['twitch', 'amazon'])
      expectRejected(
        EndpointOAuthMutate,
        { provider: { [name]: {} } },
        'unknownField',
        `provider.${name}`,
      );
    expectRejected(
      EndpointOAuthMutate,
      { provider: { okta: {} } },
      'unknownField',
      'provider.okta',
    );
  });

  it('needs exactly one provider (ERR_SERVICE_313), nulls not counting', () => {
    expectRejected(EndpointOAuthMutate, { provider: {} }, 'oauthProviderCount', 'provider');
    expectRejected(
      EndpointOAuthMutate,
      { provider: { github: null, google: null } },
      'oauthProviderCount',
      'provider',
    );
    expectRejected(
      EndpointOAuthMutate,
      { provider: { github: {}, google: {} } },
      'oauthProviderCount',
      'provider',
    );
    expectAccepted(EndpointOAuthMutate, { provider: { github: null, google: {} } });
    expectRejected(EndpointOAuthMutate, {}, 'missingField', 'provider');
  });

  it('needs client_id and client_secret together, and both for scopes (ERR_SERVICE_314)', () => {
    expectAccepted(EndpointOAuthMutate, {
      provider: { google: { client_id: 'id', client_secret: 's', scopes: ['email'] } },
    });
    expectAccepted(EndpointOAuthMutate, {
      provider: { google: { client_id: null, client_secret: null } },
    });
    expectRejected(
      EndpointOAuthMutate,
      { provider: { google: { client_id: 'id' } } },
      'oauthClientCredentials',
      'provider.google.client_secret',
    );
    expectRejected(
      EndpointOAuthMutate,
      { provider: { gitlab: { client_secret: 's' } } },
      'oauthClientCredentials',
      'provider.gitlab.client_id',
    );
    expectRejected(
      EndpointOAuthMutate,
      { provider: { github: { scopes: ['read:org'] } } },
      'oauthClientCredentials',
      'provider.github.scopes',
    );
    expectAccepted(EndpointOAuthMutate, { provider: { github: { scopes: [] } } });
  });

  it('takes teams and organizations for github only', () => {
    const parsed = expectAccepted(EndpointOAuthMutate, {
      provider: {
        github: { teams: ['acme/ops'], organizations: ['acme'], email_domains: ['acme.com'] },
      },
    });
    expect(parsed.provider.github).toEqual({
      client_id: null,
      client_secret: null,
      scopes: [],
      email_addresses: [],
      email_domains: ['acme.com'],
      teams: ['acme/ops'],
      organizations: ['acme'],
    });
    expectRejected(
      EndpointOAuthMutate,
      { provider: { github: { teams: ['ops'] } } },
      'invalidValue',
      'provider.github.teams[0]',
    );
    for (const name of OAUTH_REQUEST_PROVIDERS.filter((p) => p !== 'github')) {
      expectRejected(
        EndpointOAuthMutate,
        { provider: { [name]: { teams: ['a/b'] } } },
        'unknownField',
        `provider.${name}.teams`,
      );
      expectRejected(
        EndpointOAuthMutate,
        { provider: { [name]: { organizations: ['a'] } } },
        'unknownField',
        `provider.${name}.organizations`,
      );
    }
  });

  it('checks allowed emails and domains', () => {
    expectAccepted(EndpointOAuthMutate, {
      provider: {
        microsoft: { email_addresses: ['a@example.com'], email_domains: ['example.com'] },
      },
    });
    expectRejected(
      EndpointOAuthMutate,
      { provider: { microsoft: { email_addresses: ['nope'] } } },
      'invalidValue',
      'provider.microsoft.email_addresses[0]',
    );
    expectRejected(
      EndpointOAuthMutate,
      { provider: { microsoft: { email_domains: ['@example.com'] } } },
      'invalidValue',
      'provider.microsoft.email_domains[0]',
    );
  });

  it('fills defaults', () => {
    expect(expectAccepted(EndpointOAuthMutate, { provider: { linkedin: {} } })).toMatchObject({
      ...AUTH_DEFAULTS,
      auth_check_interval: 0,
    });
  });

  it('reads all eight providers, unset ones null', () => {
    expect(OAUTH_PROVIDERS).toEqual([...OAUTH_REQUEST_PROVIDERS, 'twitch', 'amazon']);
    const member = {
      client_id: null,
      client_secret: null,
      scopes: [],
      email_addresses: [],
      email_domains: [],
    };
    const provider: Record<string, unknown> = {
      ...Object.fromEntries(OAUTH_PROVIDERS.map((p) => [p, null])),
      twitch: member,
    };
    const module = {
      ...AUTH_DEFAULTS,
      provider,
      auth_check_interval: 300,
    };
    expect(EndpointOAuth.parse(module)).toEqual(module);
    const { amazon: _, ...sevenProviders } = provider;
    expect(EndpointOAuth.safeParse({ ...module, provider: sevenProviders }).success).toBe(false);
    expect(
      EndpointOAuth.safeParse({
        ...module,
        provider: { ...provider, github: { ...member, teams: [], organizations: [] } },
      }).success,
    ).toBe(true);
    expect(
      EndpointOAuth.safeParse({ ...module, provider: { ...provider, github: member } }).success,
    ).toBe(false);
  });
});

describe('SAML', () => {
  it('needs IdP metadata that is an EntityDescriptor', () => {
    expectRejected(EndpointSAMLMutate, {}, 'missingField', 'idp_metadata');
    expectAccepted(EndpointSAMLMutate, { idp_metadata: '<EntityDescriptor entityID="x"/>' });
    for (const idp_metadata of [
      '',
      'https://idp.example.com/metadata',
      '<EntitiesDescriptor></EntitiesDescriptor>',
    ])
      expectRejected(EndpointSAMLMutate, { idp_metadata }, 'invalidValue', 'idp_metadata');
  });

  it('fills defaults', () => {
    expect(expectAccepted(EndpointSAMLMutate, { idp_metadata: IDP_METADATA })).toEqual({
      ...AUTH_DEFAULTS,
      idp_metadata: IDP_METADATA,
      force_authn: false,
      allow_idp_initiated: false,
      authorized_groups: [],
      nameid_format: '',
    });
    expectRejected(
      EndpointSAMLMutate,
      { idp_metadata: IDP_METADATA, entity_id: 'x' },
      'unknownField',
      'entity_id',
    );
  });

  it('reads with the fields the service derives', () => {
    const module = {
      ...AUTH_DEFAULTS,
      options_passthrough: true,
      idp_metadata: IDP_METADATA,
      force_authn: true,
      allow_idp_initiated: false,
      authorized_groups: ['admins'],
      nameid_format: '',
      entity_id: 'https://sp.example.com/saml/edghtsrt_1',
      assertion_consumer_service_url: 'https://sp.example.com/saml/acs',
      single_logout_url: 'https://sp.example.com/saml/slo',
      metadata_url: 'https://sp.example.com/saml/metadata',
    };
    expect(EndpointSAML.parse(module)).toEqual(module);
  });
});
