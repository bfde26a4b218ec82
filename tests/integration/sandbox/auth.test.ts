import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { ACCOUNTS, expectError, raw } from './support.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ accounts: ACCOUNTS, rateLimit: 'off' });
});
afterAll(() => sandbox.close());

const get = (headers: Record<string, string>) => raw(`${sandbox.url}/ip_policies`, { headers });

describe('authentication and version, in that order', () => {
  it('answers 200 without Authorization, even without Service-Version', async () => {
    expectError(await get({}), 'noAuthorization');
  });

  it('answers 201 for anything but "Bearer <key>"', async () => {
    for (const value of ['alice-key-1', 'Basic YWxpY2U6eA==', 'Bearer', 'Bearer a b'])
      expectError(
        await get({ Authorization: value, 'Service-Version': '2' }),
        'malformedAuthorization',
      );
    expect(
      (await get({ Authorization: 'bearer alice-key-1', 'Service-Version': '2' })).status,
    ).toBe(200);
  });

  it('answers 203 for an unknown key and 206 for an agent authtoken', async () => {
    expectError(
      await get({ Authorization: 'Bearer nope', 'Service-Version': '2' }),
      'unknownApiKey',
    );
    const credential = await apiCaller(sandbox.url, 'alice-key-1')('POST', '/credentials', {});
    const token: string = credential.body.token;
    expectError(
      await get({ Authorization: `Bearer ${token}`, 'Service-Version': '2' }),
      'authtokenAsApiKey',
    );
  });

  it('answers 218 without Service-Version and 217 with another version', async () => {
    const missing = await get({ Authorization: 'Bearer alice-key-1' });
    expectError(missing, 'missingVersion');
    expect(missing.body.msg).toContain('Service-Version');
    expect(missing.body.msg).toContain('2');
    expectError(
      await get({ Authorization: 'Bearer alice-key-1', 'Service-Version': '1' }),
      'unsupportedVersion',
    );
    expectError(
      await get({ Authorization: 'Bearer alice-key-1', 'Service-Version': ' ' }),
      'missingVersion',
    );
  });

  it('checks auth before the route, so an unknown path without a key is 200', async () => {
    expectError(await raw(`${sandbox.url}/nope`, {}), 'noAuthorization');
  });
});

describe('credential ownership', () => {
  const alice = () => apiCaller(sandbox.url, 'alice-key-1');
  const bob = () => apiCaller(sandbox.url, 'bob-key-1');

  it('defaults the owner to the caller', async () => {
    expect((await bob()('POST', '/credentials', {})).body.owner_id).toBe('usr_bob');
    expect((await alice()('POST', '/ssh_credentials', { public_key: KEY })).body.owner_id).toBe(
      'usr_alice',
    );
  });

  it('lets an admin give it to a user or bot of the account (223 otherwise)', async () => {
    expect((await alice()('POST', '/credentials', { owner_id: 'bot_ci' })).body.owner_id).toBe(
      'bot_ci',
    );
    expect((await alice()('POST', '/credentials', { owner_id: 'usr_bob' })).body.owner_id).toBe(
      'usr_bob',
    );
    expectError(
      await alice()('POST', '/credentials', { owner_id: 'usr_carol' }),
      'invalidReference',
    );
    expectError(await alice()('POST', '/credentials', { owner_id: 'ipp_x' }), 'invalidReference');
  });

  it('refuses another owner from a non-admin (304) and owner_id on update (214)', async () => {
    expectError(await bob()('POST', '/credentials', { owner_id: 'usr_alice' }), 'ownerNotAllowed');
    expect((await bob()('POST', '/credentials', { owner_id: 'usr_bob' })).status).toBe(201);
    const created = await alice()('POST', '/credentials', {});
    expectError(
      await alice()('PATCH', `/credentials/${created.body.id}`, { owner_id: 'usr_bob' }),
      'unknownField',
    );
  });

  it('shows the token once, and validates ACL rules (309)', async () => {
    const created = await alice()('POST', '/credentials', {
      acl: ['bind:*.example.com', 'bind:env=*'],
    });
    expect(created.body.token).toMatch(/^[0-9A-Za-z]{48}$/);
    expect((await alice()('GET', `/credentials/${created.body.id}`)).body.token).toBeNull();
    const listed = await alice()('GET', '/credentials');
    expect(listed.body.credentials.every((c: { token: unknown }) => c.token === null)).toBe(true);
    const patched = await alice()('PATCH', `/credentials/${created.body.id}`, { acl: ['*'] });
    expect(patched.body).toMatchObject({ acl: ['*'], token: null });
    expectError(await alice()('POST', '/credentials', { acl: ['connect:x'] }), 'invalidAclRule');
    expectError(await alice()('POST', '/credentials', { acl: ['bind:*'] }), 'invalidAclRule');
  });
});

const KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMMSLXS0duRMYMN2sGRAamKIbhq0CWPO/PPzPB9epkZs alice@laptop';
