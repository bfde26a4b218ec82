import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { exposeHandlers } from '../../../../core/expose/handlers.ts';
import { planExpose } from '../../../../core/expose/plan.ts';
import { runExpose } from '../../../../core/expose/run.ts';
import { ExposeRequest, type ExposeProgress } from '../../../../shared/app/ipc/expose.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';
import { startAccount } from '../api/support.ts';

const cleanup = cleanupAfterAll();
let api: ApiClient;
const progress: ExposeProgress[] = [];
let handlers: ReturnType<typeof exposeHandlers>;

beforeAll(async () => {
  ({ api } = await startAccount('expose-key', cleanup));
  handlers = exposeHandlers({ client: async () => api, onProgress: (p) => progress.push(p) });
});

const request = (overrides: Partial<ExposeRequest> = {}) =>
  ExposeRequest.parse({
    name: 'web',
    hostport: 'web.example.com:443',
    labels: { service: 'web' },
    ...overrides,
  });

/** Every id of the kinds the flow creates, to compare before and after a run. */
async function account() {
  const [backends, edges, credentials] = await Promise.all([
    api.tunnelGroupBackends.listAll(),
    api.httpsEdges.listAll(),
    api.credentials.listAll(),
  ]);
  return {
    backends: backends.map((b) => b.id),
    edges: edges.map((e) => e.id),
    routes: edges.flatMap((e) => e.routes.map((r) => r.id)),
    credentials: credentials.map((c) => c.id),
  };
}

describe('the plan', () => {
  it('says in words what Create will make, naming the IP policy', async () => {
    const office = await api.ipPolicies.create({ description: 'office' });
    const plan = await handlers['expose.plan'](
      request({ protection: { ip_restriction: { ip_policy_ids: [office.id] } } }),
    );
    expect(plan.steps).toEqual([
      { kind: 'backend', words: "Create a tunnel group backend 'web' (labels service=web)" },
      { kind: 'edge', words: 'Create an HTTPS edge on web.example.com:443' },
      {
        kind: 'route',
        words: "Create its route / to that backend, with IP restriction by policy 'office'",
      },
      {
        kind: 'credential',
        words: 'Create a credential for the agent, allowed to bind service=web only',
      },
    ]);
    expect(plan).toMatchObject({
      credential: { kind: 'create' },
      url: 'https://web.example.com',
      binds: ['service=web'],
    });
  });

  it('names OIDC and OAuth sign-in, and a port other than 443 in the address', async () => {
    const oidc = await handlers['expose.plan'](
      request({
        hostport: 'web.example.com:8443',
        protection: {
          oidc: { issuer: 'https://idp.example.com', client_id: 'id', client_secret: 's3cret' },
        },
      }),
    );
    expect(oidc.steps[2]?.words).toBe(
      'Create its route / to that backend, with sign-in through OpenID Connect at https://idp.example.com',
    );
    expect(oidc.url).toBe('https://web.example.com:8443');
    const oauth = await handlers['expose.plan'](
      request({ protection: { oauth: { provider: { google: {} } } } }),
    );
    expect(oauth.steps[2]?.words).toBe(
      'Create its route / to that backend, with sign-in through Google',
    );
  });

  it('suggests a hostport beside the account’s edges that none serves yet', async () => {
    await api.httpsEdges.create({ hostports: ['app.acme.test:443', 'api.acme.test:443'] });
    expect(await handlers['expose.suggest']({ name: 'Web Shop' })).toEqual({
      hostport: 'web-shop.acme.test:443',
    });
    await api.tlsEdges.create({ hostports: ['web-shop.acme.test:443'] });
    expect(await handlers['expose.suggest']({ name: 'Web Shop' })).toEqual({
      hostport: 'web-shop-2.acme.test:443',
    });
  });
});

describe('a run', () => {
  it('creates the backend, the edge, its route and a credential, each pointing at the last', async () => {
    const office = await api.ipPolicies.create({ description: 'office' });
    progress.length = 0;
    const result = await handlers['expose.run'](
      request({
        name: 'shop',
        hostport: 'shop.example.com:443',
        labels: { service: 'shop', env: 'prod' },
        protection: { ip_restriction: { ip_policy_ids: [office.id] } },
      }),
    );
    if (result.outcome !== 'created') throw new Error(result.message);
    expect(await api.tunnelGroupBackends.get(result.backendId)).toMatchObject({
      description: 'shop',
      labels: { service: 'shop', env: 'prod' },
    });
    const edge = await api.httpsEdges.get(result.edgeId);
    expect(edge.hostports).toEqual(['shop.example.com:443']);
    expect(edge.routes).toHaveLength(1);
    expect(edge.routes[0]).toMatchObject({
      id: result.routeId,
      match: '/',
      match_type: 'path_prefix',
      backend: { backend: { id: result.backendId } },
      ip_restriction: { ip_policies: [{ id: office.id }] },
    });
    const credential = await api.credentials.get(result.credential.id);
    expect(credential.acl).toEqual(['bind:service=shop', 'bind:env=prod']);
    expect(result.credential.token).toMatch(/\S{16,}/);
    expect(result).toMatchObject({
      url: 'https://shop.example.com',
      binds: ['service=shop', 'env=prod'],
    });
    expect(progress.map((p) => `${p.step}/${p.total} ${p.state}`)).toEqual([
      '0/4 creating',
      '0/4 created',
      '1/4 creating',
      '1/4 created',
      '2/4 creating',
      '2/4 created',
      '3/4 creating',
      '3/4 created',
    ]);
  });

  it('names the credential by the service alone when the words would be too long', async () => {
    const name = 'x'.repeat(255);
    const result = await handlers['expose.run'](
      request({ name, hostport: 'long.example.com:443', labels: { service: 'long' } }),
    );
    expect(result).toMatchObject({ outcome: 'created', credential: { name } });
  });

  it('uses a credential whose ACL permits the labels instead of making one', async () => {
    const fits = await api.credentials.create({
      description: 'kiosk agents',
      acl: ['bind:service=*'],
    });
    const before = await account();
    const result = await handlers['expose.run'](
      request({ name: 'kiosk', hostport: 'kiosk.example.com:443', labels: { service: 'kiosk' } }),
    );
    expect(result).toMatchObject({
      outcome: 'created',
      credential: { id: fits.id, name: 'kiosk agents', token: null },
    });
    expect((await account()).credentials).toEqual(before.credentials);
  });

  it('leaves nothing behind when the API refuses the third step, the route', async () => {
    const doomed = await api.ipPolicies.create({ description: 'doomed' });
    const plan = await planExpose(
      api,
      request({
        name: 'doomed',
        hostport: 'doomed.example.com:443',
        protection: { ip_restriction: { ip_policy_ids: [doomed.id] } },
      }),
    );
    // Gone between the plan and Create: the route's reference to it is refused (223).
    await api.ipPolicies.delete(doomed.id);
    const before = await account();
    const told: ExposeProgress[] = [];
    const result = await runExpose(api, plan, (p) => told.push(p));
    expect(result).toMatchObject({
      outcome: 'failed',
      step: expect.stringMatching(/^Create its route \//),
      code: 'ERR_SERVICE_223',
      leftBehind: [],
    });
    expect(await account()).toEqual(before);
    expect(told.slice(-6).map((p) => `${p.step} ${p.state}`)).toEqual([
      '2 creating',
      '2 failed',
      '1 undoing',
      '1 undone',
      '0 undoing',
      '0 undone',
    ]);
  });

  it('names what it could not delete again', async () => {
    const plan = await planExpose(
      api,
      request({ name: 'stuck', hostport: 'stuck.example.com:443' }),
    );
    // An injected client wrapper (named as such): the route's create and the backend's delete
    // fail, which a real account would do only under a race this test cannot stage.
    const refused = () => Promise.reject(new Error('refused by the test wrapper'));
    const wrapper = {
      ...pick(api),
      httpsEdgeRoutes: { ...api.httpsEdgeRoutes, create: refused },
      tunnelGroupBackends: { ...api.tunnelGroupBackends, delete: refused },
    } as unknown as ApiClient;
    const result = await runExpose(wrapper, plan, () => undefined);
    if (result.outcome !== 'failed') throw new Error('the run did not fail');
    expect(result.leftBehind).toEqual([
      expect.stringMatching(
        /^the tunnel group backend 'stuck' \(bkdtg_\w+\): refused by the test wrapper$/,
      ),
    ]);
    const stuck = result.leftBehind[0]?.match(/bkdtg_\w+/)?.[0] ?? '';
    await api.tunnelGroupBackends.delete(stuck);
  });
});

function pick(client: ApiClient) {
  const { tunnelGroupBackends, httpsEdges, httpsEdgeRoutes, credentials, ipPolicies } = client;
  return { tunnelGroupBackends, httpsEdges, httpsEdgeRoutes, credentials, ipPolicies };
}

describe('bad inputs', () => {
  const policy = 'ipp_00000000000000000000000000';
  it.each([
    [{ name: '  ' }, 'ERR_SERVICE_300', 'name'],
    [{ name: 'x'.repeat(256) }, 'ERR_SERVICE_420', 'name'],
    [{ hostport: 'web.example.com' }, 'ERR_SERVICE_215', 'hostport'],
    [{ hostport: 'web.example.com:70000' }, 'ERR_SERVICE_215', 'hostport'],
    [{ labels: {} }, 'ERR_SERVICE_215', 'labels'],
    [{ labels: { 'bad key': 'web' } }, 'ERR_SERVICE_215', 'labels'],
    [
      { protection: { ip_restriction: { ip_policy_ids: [] } } },
      'ERR_SERVICE_215',
      'protection.ip_restriction.ip_policy_ids',
    ],
    [
      { protection: { ip_restriction: { ip_policy_ids: [policy] } } },
      'ERR_SERVICE_301',
      'protection.ip_restriction.ip_policy_ids',
    ],
    [
      { protection: { oidc: { client_id: 'id', client_secret: 's' } } },
      'ERR_SERVICE_300',
      'protection.oidc.issuer',
    ],
    [
      { protection: { oauth: { provider: { github: { client_id: 'id' } } } } },
      'ERR_SERVICE_314',
      'protection.oauth.provider.github.client_secret',
    ],
    [{ protection: { oauth: { provider: {} } } }, 'ERR_SERVICE_313', 'protection.oauth.provider'],
  ] as const)('refuses %j at its field', async (overrides, code, field) => {
    const before = await account();
    const refusal = handlers['expose.run'](request(overrides as Partial<ExposeRequest>));
    await expect(refusal).rejects.toMatchObject({ code, field });
    await expect(refusal).rejects.toThrow(new RegExp(`^${field.replaceAll('.', '\\.')}: `));
    expect(await account()).toEqual(before);
  });
});
