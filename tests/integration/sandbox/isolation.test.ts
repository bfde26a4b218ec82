import { describe, expect, it } from 'vitest';
import { accountCallers, expectError, sandboxForFile } from './support.ts';

const suite = sandboxForFile();

describe('accounts', () => {
  it('never see each other: another account’s id is a plain 404 and an invalid reference', async () => {
    const { alice, bob, carol } = accountCallers(suite.sandbox.url);
    const policy = (await alice('POST', '/ip_policies', {})).body.id;
    const backend = (await alice('POST', '/backends/http_response', {})).body.id;
    const edge = (await alice('POST', '/edges/tls', {})).body.id;

    // Users of one account share it.
    expect((await bob('GET', `/ip_policies/${policy}`)).status).toBe(200);

    for (const [method, path] of [
      ['GET', `/ip_policies/${policy}`],
      ['DELETE', `/ip_policies/${policy}`],
      ['GET', `/edges/tls/${edge}/backend`],
    ] as const)
      expectError(await carol(method, path), 'notFound');
    expectError(await carol('PATCH', `/ip_policies/${policy}`, { description: 'x' }), 'notFound');
    expectError(
      await carol('POST', '/edges/tls', { backend: { backend_id: backend } }),
      'invalidReference',
    );
    expectError(
      await carol('POST', '/edges/tls', { ip_restriction: { ip_policy_ids: [policy] } }),
      'invalidReference',
    );
    expectError(await carol('GET', `/ip_policies?before_id=${policy}`), 'notFound');
    expect((await carol('GET', '/ip_policies')).body.ip_policies).toEqual([]);
    expect((await alice('GET', `/ip_policies/${policy}`)).status).toBe(200);
  });
});
