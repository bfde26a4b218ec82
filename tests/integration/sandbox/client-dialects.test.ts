/**
 * What other official clients send, taken as they mean it: the Python client's commands without a
 * body, the zero values generated clients send for every input left unset, and a module written
 * back as it was read. Requests go over loopback exactly as that client writes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../sandbox/agent/agent.ts';
import { pythonClient } from './python-client.ts';
import { AUTH, expectError, PUBLIC_KEYS, raw, sandboxForFile } from './support.ts';

const suite = sandboxForFile();
const api = suite.api;
let python: ReturnType<typeof pythonClient>;

beforeAll(() => {
  python = pythonClient(suite.sandbox.url, 'alice-key-1');
});

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const reply = await api('POST', path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

describe('session commands without a body', () => {
  let agent: Agent;
  let session: string;

  beforeAll(async () => {
    const { token } = (await api('POST', '/credentials', {})).body as { token: string };
    agent = new Agent({
      url: suite.sandbox.agentUrl,
      authtoken: token,
      version: '3.1.2',
      os: 'windows',
      updateChecks: false,
    }).start();
    session = await agent.online();
  });

  afterAll(() => agent.stop());

  it('read as {}: each command reaches its own rules, and stop stops', async () => {
    expectError(
      await python('POST', `/tunnel_sessions/${session}/restart`),
      'restartUnsupportedOnWindows',
    );
    expectError(await python('POST', `/tunnel_sessions/${session}/update`), 'updateChecksDisabled');
    const stop = await python('POST', `/tunnel_sessions/${session}/stop`);
    expect(stop.status, JSON.stringify(stop.body)).toBe(204);
    await expect.poll(() => agent.stopped).toBe('command');
  });

  it('a body that is sent is still framed and checked', async () => {
    const path = `${suite.sandbox.url}/tunnel_sessions/ts_00000000000000000000000000/stop`;
    expectError(
      // Bytes, not a string, which fetch would label text/plain.
      await raw(path, {
        method: 'POST',
        body: new TextEncoder().encode('{}'),
        headers: AUTH('alice-key-1'),
      }),
      'missingContentType',
    );
    expectError(await api('POST', new URL(path).pathname, { force: true }), 'unknownField');
    expectError(await api('POST', new URL(path).pathname, []), 'invalidJsonBody');
  });

  it('an operation that needs its body still refuses none', async () => {
    expectError(await python('POST', '/backends/failover'), 'invalidJsonBody');
  });
});

describe('zero values read as unset where the field may be left out', () => {
  it('an SSH CA with the key options left at "" and 0 takes their defaults', async () => {
    const ed25519 = await python('POST', '/ssh_certificate_authorities', {
      description: '',
      metadata: '',
      private_key_type: 'ed25519',
      elliptic_curve: '',
      key_size: 0,
    });
    expect(ed25519.status, JSON.stringify(ed25519.body)).toBe(201);
    expect(ed25519.body).toMatchObject({ key_type: 'ed25519', description: '', metadata: '' });
    const ecdsa = await python('POST', '/ssh_certificate_authorities', {
      private_key_type: 'ecdsa',
      elliptic_curve: '',
      key_size: 0,
    });
    expect(ecdsa.status, JSON.stringify(ecdsa.body)).toBe(201);
    expect(ecdsa.body.public_key).toMatch(/^ecdsa-sha2-nistp384 /);
    const unset = await python('POST', '/ssh_certificate_authorities', {
      private_key_type: '',
      elliptic_curve: '',
      key_size: 0,
    });
    expect(unset.status, JSON.stringify(unset.body)).toBe(201);
    expect(unset.body.key_type).toBe('ed25519');
  });

  it("a user certificate with extensions {} gets the default extensions; '' times their defaults", async () => {
    const ca = await created('/ssh_certificate_authorities', {});
    const signed = await python('POST', '/ssh_user_certificates', {
      ssh_certificate_authority_id: ca,
      public_key: PUBLIC_KEYS.ed25519,
      principals: [],
      critical_options: {},
      extensions: {},
      // The client's own default, datetime.min, does not serialise: a caller gives times.
      valid_after: '2026-01-01T00:00:00Z',
      valid_until: '2026-01-02T00:00:00Z',
      description: '',
      metadata: '',
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect(signed.body).toMatchObject({
      principals: [],
      critical_options: {},
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
      valid_after: '2026-01-01T00:00:00.000Z',
    });
    const untimed = await python('POST', '/ssh_user_certificates', {
      ssh_certificate_authority_id: ca,
      public_key: PUBLIC_KEYS.ed25519,
      valid_after: '',
      valid_until: '',
    });
    expect(untimed.status, JSON.stringify(untimed.body)).toBe(201);
    const hours =
      (Date.parse(untimed.body.valid_until) - Date.parse(untimed.body.valid_after)) / 3_600_000;
    expect(Math.round(hours)).toBe(24);
  });

  it('description-only updates of a failover backend, a tunnel group and a route', async () => {
    const child = await created('/backends/http_response', { body: 'ok' });
    const failover = await created('/backends/failover', { backends: [child] });
    const f = await python('PATCH', `/backends/failover/${failover}`, {
      description: 'now described',
      metadata: null,
      backends: [],
    });
    expect(f.status, JSON.stringify(f.body)).toBe(200);
    expect(f.body).toMatchObject({ description: 'now described', backends: [child] });

    const group = await created('/backends/tunnel_group', { labels: { env: 'prod' } });
    const g = await python('PATCH', `/backends/tunnel_group/${group}`, {
      description: 'now described',
      metadata: null,
      labels: {},
    });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    expect(g.body).toMatchObject({ description: 'now described', labels: { env: 'prod' } });

    const edge = await created('/edges/https', {});
    const route = await created(`/edges/https/${edge}/routes`, {
      match_type: 'path_prefix',
      match: '/app',
    });
    const r = await python('PATCH', `/edges/https/${edge}/routes/${route}`, {
      match_type: '',
      match: '',
      description: 'now described',
      metadata: '',
      backend: null,
      oauth: null,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      description: 'now described',
      match_type: 'path_prefix',
      match: '/app',
    });
  });

  it('an HTTP response backend and an OAuth module with zero values take the defaults', async () => {
    const backend = await python('POST', '/backends/http_response', {
      description: '',
      metadata: '',
      body: '',
      headers: {},
      status_code: 0,
    });
    expect(backend.status, JSON.stringify(backend.body)).toBe(201);
    expect(backend.body).toMatchObject({ body: '', headers: {}, status_code: 200 });
    const edge = await created('/edges/https', {});
    const route = await created(`/edges/https/${edge}/routes`, {
      match_type: 'exact_path',
      match: '/',
    });
    const oauth = await python('PUT', `/edges/https/${edge}/routes/${route}/oauth`, {
      provider: { google: { email_domains: ['example.com'], scopes: [] } },
      cookie_prefix: '',
      inactivity_timeout: 0,
      maximum_duration: 0,
      auth_check_interval: 0,
    });
    expect(oauth.status, JSON.stringify(oauth.body)).toBe(200);
    expect(oauth.body).toMatchObject({ cookie_prefix: 'service.', inactivity_timeout: 0 });
  });

  it('a zero the field takes as a value stands: an empty description or ACL clears it', async () => {
    const policy = await created('/ip_policies', { description: 'office' });
    const cleared = await python('PATCH', `/ip_policies/${policy}`, { description: '' });
    expect(cleared.body.description).toBe('');
    const credential = await created('/credentials', { acl: ['bind:a.example.com'] });
    const open = await api('PATCH', `/credentials/${credential}`, { acl: [] });
    expect(open.body.acl).toEqual([]);
  });

  it('a zero where a create needs a real value is still refused, naming the field', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/backends/failover', { description: '', metadata: '', backends: [] }, 'backends'],
      ['/backends/tunnel_group', { description: '', metadata: '', labels: {} }, 'labels'],
      ['/certificate_authorities', { ca_pem: '', description: '', metadata: '' }, 'ca_pem'],
      ['/abuse_reports', { urls: [], metadata: '' }, 'urls'],
      ['/agent_ingresses', { domain: '', description: '', metadata: '' }, 'domain'],
    ];
    for (const [path, body, field] of cases) {
      const reply = await python('POST', path, body);
      expectError(reply, 'invalidValue');
      expect(reply.body.details.field, path).toBe(field);
    }
    const edge = await created('/edges/https', {});
    const route = await python('POST', `/edges/https/${edge}/routes`, {
      match_type: '',
      match: '/x',
      description: '',
      metadata: '',
    });
    expectError(route, 'invalidValue');
    expect(route.body.details.field).toBe('match_type');
  });
});

describe('a module as read can be written back', () => {
  let edge: string;
  let route: string;
  let path: string;
  let read: Record<string, unknown>;

  beforeAll(async () => {
    edge = await created('/edges/https', {});
    route = await created(`/edges/https/${edge}/routes`, { match_type: 'exact_path', match: '/' });
    path = `/edges/https/${edge}/routes/${route}/oauth`;
    const put = await api('PUT', path, {
      provider: {
        github: {
          client_id: 'id',
          client_secret: 'secret',
          scopes: ['read:org'],
          teams: ['acme/ops'],
        },
      },
      auth_check_interval: 300,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    read = (await api('GET', path)).body;
  });

  it('the OAuth module shows all eight providers, the unset ones null', () => {
    expect(read['provider']).toMatchObject({ twitch: null, amazon: null, google: null });
  });

  it('PUT back unchanged, bare (as the Python client) and wrapped (as the TypeScript one)', async () => {
    const bare = await python('PUT', path, read);
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    expect(bare.body).toEqual(read);
    const wrapped = await api('PUT', path, { edge_id: edge, id: route, module: read });
    expect(wrapped.status, JSON.stringify(wrapped.body)).toBe(200);
    expect(wrapped.body).toEqual(read);
  });

  it("PATCH of the route with the module as read, and with the route's unset modules as null", async () => {
    const shown = (await api('GET', `/edges/https/${edge}/routes/${route}`)).body;
    const patched = await python('PATCH', `/edges/https/${edge}/routes/${route}`, {
      description: 'written back',
      oauth: read,
      saml: shown.saml,
      oidc: shown.oidc,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.oauth).toEqual(read);
  });

  it('a provider that requests cannot choose is still refused when it is set', async () => {
    const reply = await api('PUT', path, {
      provider: { twitch: { email_domains: ['example.com'] } },
    });
    expectError(reply, 'unknownField');
    expect(reply.body.details.field).toBe('provider.twitch');
  });
});
