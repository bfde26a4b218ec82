import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName } from '../../../shared/api/catalog/endpoints.ts';
import { unsetValuesOut } from '../../../sandbox/http/unset-values.ts';

/** `body` as the server reads it for the endpoint `name`. */
function read(name: EndpointName, body: unknown): unknown {
  const endpoint = ENDPOINTS.find((e) => e.name === name);
  if (!endpoint?.body) throw new Error(`${name} takes no body`);
  return unsetValuesOut(endpoint as typeof endpoint & { body: object }, body);
}

describe('zero values', () => {
  it('of a field that may be left out and refuses them read as left out', () => {
    expect(
      read('sshCertificateAuthorities.create', {
        description: '',
        private_key_type: '',
        elliptic_curve: '',
        key_size: 0,
      }),
    ).toEqual({ description: '' });
    expect(read('failoverBackends.update', { backends: [] })).toEqual({});
    expect(read('tunnelGroupBackends.update', { labels: {} })).toEqual({});
    expect(read('httpsEdgeRoutes.update', { match_type: '', match: '' })).toEqual({});
  });

  it('of a field with a default of its own read as left out, nested ones too', () => {
    expect(read('sshUserCertificates.create', { extensions: {}, principals: [] })).toEqual({});
    expect(
      read('httpsEdgeRoutes.create', {
        circuit_breaker: { tripped_duration: 0, error_threshold_percentage: 0 },
      }),
    ).toEqual({ circuit_breaker: {} });
  });

  it('stand where the field takes them and has no default, or needs a real value', () => {
    const cleared = { description: '', metadata: '', acl: [] };
    expect(read('credentials.update', cleared)).toEqual(cleared);
    expect(read('httpResponseBackends.update', { headers: {}, body: '' })).toEqual({
      headers: {},
      body: '',
    });
    expect(read('failoverBackends.create', { backends: [] })).toEqual({ backends: [] });
    expect(read('tunnelGroupBackends.create', { labels: {} })).toEqual({ labels: {} });
    expect(read('httpsEdgeRoutes.create', { match_type: '' })).toEqual({ match_type: '' });
  });

  it("are only the zero of the field's own type", () => {
    const wrong = { key_size: '', elliptic_curve: 0, private_key_type: [] };
    expect(read('sshCertificateAuthorities.create', wrong)).toEqual(wrong);
    expect(read('httpsEdgeRoutes.update', { oidc: {} })).toEqual({ oidc: {} });
  });
});

describe('null', () => {
  const github = { client_id: null, client_secret: null, email_domains: ['example.com'] };
  const asRead = { github, twitch: null, amazon: null, google: null };

  it('where the representation shows an unset member reads as left out', () => {
    expect(read('httpsEdgeRoutes.oauth.replace', { provider: asRead })).toEqual({
      provider: { github, google: null },
    });
    expect(read('httpsEdgeRoutes.oauth.replace', { module: { provider: asRead } })).toEqual({
      module: { provider: { github, google: null } },
    });
    expect(read('httpsEdgeRoutes.update', { oauth: null, saml: null })).toEqual({});
    expect(read('credentials.update', { token: null })).toEqual({});
  });

  it('stands where the representation has no such null: it is refused as before', () => {
    expect(read('httpsEdgeRoutes.oauth.replace', { provider: { twitch: {} } })).toEqual({
      provider: { twitch: {} },
    });
    expect(read('ipPolicies.update', { description: null, color: null })).toEqual({
      description: null,
      color: null,
    });
  });
});

it('keeps a "__proto__" member a member', () => {
  const body = JSON.parse('{"__proto__": {"x": 1}, "description": ""}') as object;
  const out = read('ipPolicies.update', body) as Record<string, unknown>;
  expect(Object.hasOwn(out, '__proto__')).toBe(true);
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
});
