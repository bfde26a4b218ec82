import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPPolicyRule } from '../../../shared/api/kinds/ip-policy-rules.ts';
import { startSandbox } from '../../../sandbox/index.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { accountCallers, ACCOUNTS, expectError, sandboxForFile } from './support.ts';

const suite = sandboxForFile();
const { api } = suite;

async function policy(description = 'office'): Promise<string> {
  const reply = await api('POST', '/ip_policies', { description });
  expect(reply.status).toBe(201);
  return reply.body.id as string;
}

async function rule(body: Record<string, unknown>): Promise<ApiReply> {
  return api('POST', '/ip_policy_rules', body);
}

/** The error is `name`, in the spec's shape, naming `field` in details and in its message. */
function expectFieldError(reply: ApiReply, name: Parameters<typeof expectError>[1], field: string) {
  expectError(reply, name);
  expect(reply.body.details.field).toBe(field);
  expect(reply.body.msg).toContain(`"${field}"`);
}

describe('IP policy rules', () => {
  it('are created, read, listed, updated and deleted, each with its policy as a Ref', async () => {
    const ipp = await policy();
    const created = await rule({
      cidr: '203.0.113.0/24',
      ip_policy_id: ipp,
      action: 'allow',
      description: 'office ✓',
      metadata: '{"floor":3}',
    });
    expect(created.status).toBe(201);
    const { id } = created.body;
    expect(id).toMatch(/^ipr_[A-Za-z0-9]+$/);
    expect(IPPolicyRule.parse(created.body)).toEqual({
      id,
      uri: `${suite.sandbox.url}/ip_policy_rules/${id}`,
      created_at: expect.stringMatching(/Z$/),
      description: 'office ✓',
      metadata: '{"floor":3}',
      cidr: '203.0.113.0/24',
      ip_policy: { id: ipp, uri: `${suite.sandbox.url}/ip_policies/${ipp}` },
      action: 'allow',
    });
    expect((await api('GET', `/ip_policy_rules/${id}`)).body).toEqual(created.body);

    const list = await api('GET', '/ip_policy_rules');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      uri: `${suite.sandbox.url}/ip_policy_rules`,
      next_page_uri: null,
    });
    expect(list.body.ip_policy_rules[0]).toEqual(created.body);

    const updated = await api('PATCH', `/ip_policy_rules/${id}`, {
      cidr: '2001:db8::/48',
      description: '',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      cidr: '2001:db8::/48',
      description: '',
      metadata: '{"floor":3}',
      action: 'allow',
      ip_policy: { id: ipp },
    });

    expect((await api('DELETE', `/ip_policy_rules/${id}`)).status).toBe(204);
    expectError(await api('GET', `/ip_policy_rules/${id}`), 'notFound');
    expectError(await api('DELETE', `/ip_policy_rules/${id}`), 'notFound');
  });

  it('keep a block as written, host bits included, in either family', async () => {
    const ipp = await policy();
    for (const cidr of ['192.0.2.7/24', '::ffff:10.0.0.0/104', 'FE80::1/10', '0.0.0.0/0']) {
      const reply = await rule({ cidr, ip_policy_id: ipp, action: 'deny' });
      expect(reply.status).toBe(201);
      expect(reply.body.cidr).toBe(cidr);
    }
  });

  it('page newest first, like every list', async () => {
    const ipp = await policy('paged');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await rule({ cidr: `10.${i}.0.0/16`, ip_policy_id: ipp, action: 'allow' })).body.id,
      );
    const first = await api('GET', '/ip_policy_rules?limit=3');
    expect(first.body.ip_policy_rules.map((r: { id: string }) => r.id)).toEqual(
      ids.slice(-3).reverse(),
    );
    const next = await api('GET', first.body.next_page_uri);
    expect(next.body.ip_policy_rules.slice(0, 2).map((r: { id: string }) => r.id)).toEqual(
      ids.slice(0, 2).reverse(),
    );
    expectError(await api('GET', `/ip_policy_rules?before_id=${ipp}`), 'invalidBeforeId');
  });

  it('go with their policy, and only its rules go', async () => {
    const doomed = await policy('doomed');
    const kept = await policy('kept');
    const a = (await rule({ cidr: '10.0.0.0/8', ip_policy_id: doomed, action: 'allow' })).body.id;
    const b = (await rule({ cidr: '10.0.0.0/9', ip_policy_id: doomed, action: 'deny' })).body.id;
    const c = (await rule({ cidr: '10.0.0.0/8', ip_policy_id: kept, action: 'allow' })).body.id;
    expect((await api('DELETE', `/ip_policies/${doomed}`)).status).toBe(204);
    expectError(await api('GET', `/ip_policy_rules/${a}`), 'notFound');
    expectError(await api('GET', `/ip_policy_rules/${b}`), 'notFound');
    expect((await api('GET', `/ip_policy_rules/${c}`)).status).toBe(200);
    // The deleted policy can take no new rule.
    expectFieldError(
      await rule({ cidr: '10.0.0.0/8', ip_policy_id: doomed, action: 'allow' }),
      'invalidReference',
      'ip_policy_id',
    );
  });

  it('belong to their account: another account sees none and cannot name its policies', async () => {
    const ipp = await policy();
    const id = (await rule({ cidr: '10.0.0.0/8', ip_policy_id: ipp, action: 'allow' })).body.id;
    const { carol } = accountCallers(suite.sandbox.url);
    expectError(await carol('GET', `/ip_policy_rules/${id}`), 'notFound');
    expectError(await carol('PATCH', `/ip_policy_rules/${id}`, { description: 'x' }), 'notFound');
    expect((await carol('GET', '/ip_policy_rules')).body.ip_policy_rules).toEqual([]);
    const reply = await carol('POST', '/ip_policy_rules', {
      cidr: '10.0.0.0/8',
      ip_policy_id: ipp,
      action: 'allow',
    });
    expectFieldError(reply, 'invalidReference', 'ip_policy_id');
  });
});

describe('IP policy rules refuse, naming the field', () => {
  const valid = async () => ({ cidr: '10.0.0.0/8', ip_policy_id: await policy(), action: 'allow' });

  it.each([
    ['10.0.0.1', /CIDR notation/],
    ['10.0.0.0/33', /prefix length from 0 to 32/],
    ['2001:db8::/129', /prefix length from 0 to 128/],
    ['10.0.0/8', /IPv4 or IPv6 address/],
    ['10.0.0.0/8 office', /written as "10.0.0.0\/8", with nothing after it/],
    ['fe80::1%eth0/64', /IPv4 or IPv6 address/],
    ['', /CIDR notation/],
  ])('a bad block %j (215)', async (cidr, words) => {
    const reply = await rule({ ...(await valid()), cidr });
    expectFieldError(reply, 'invalidValue', 'cidr');
    expect(reply.body.msg).toMatch(words);
  });

  it.each(['cidr', 'ip_policy_id', 'action'])('a missing %s (300)', async (field) => {
    const { [field as 'cidr']: _, ...body } = await valid();
    expectFieldError(await rule(body), 'missingField', field);
  });

  it('an unknown policy (223), a malformed one (215) and one of another kind (223)', async () => {
    const body = await valid();
    expectFieldError(
      await rule({ ...body, ip_policy_id: 'ipp_NoSuchPolicy1' }),
      'invalidReference',
      'ip_policy_id',
    );
    expectFieldError(
      await rule({ ...body, ip_policy_id: 'policy' }),
      'invalidValue',
      'ip_policy_id',
    );
    expectFieldError(
      await rule({ ...body, ip_policy_id: 'cr_1' }),
      'invalidReference',
      'ip_policy_id',
    );
  });

  it('an action other than allow or deny (215)', async () => {
    const reply = await rule({ ...(await valid()), action: 'block' });
    expectFieldError(reply, 'invalidValue', 'action');
    expect(reply.body.msg).toContain('"allow", "deny"');
  });

  it('an oversize description (420) or metadata (421)', async () => {
    const body = await valid();
    expectFieldError(
      await rule({ ...body, description: 'é'.repeat(128) }),
      'descriptionTooLong',
      'description',
    );
    expectFieldError(
      await rule({ ...body, metadata: 'x'.repeat(4097) }),
      'metadataTooLong',
      'metadata',
    );
  });

  it('an update of the action or the policy (214), or to a bad block (215)', async () => {
    const body = await valid();
    const id = (await rule(body)).body.id;
    expectFieldError(
      await api('PATCH', `/ip_policy_rules/${id}`, { action: 'deny' }),
      'unknownField',
      'action',
    );
    expectFieldError(
      await api('PATCH', `/ip_policy_rules/${id}`, { ip_policy_id: await policy() }),
      'unknownField',
      'ip_policy_id',
    );
    expectFieldError(
      await api('PATCH', `/ip_policy_rules/${id}`, { cidr: '10.0.0.0/99' }),
      'invalidValue',
      'cidr',
    );
    expectFieldError(
      await api('PATCH', `/ip_policy_rules/${id}`, { description: 'é'.repeat(128) }),
      'descriptionTooLong',
      'description',
    );
    // Nothing of the refused updates stuck.
    expect((await api('GET', `/ip_policy_rules/${id}`)).body).toMatchObject({
      cidr: '10.0.0.0/8',
      action: 'allow',
    });
  });

  it('an empty block in an update reads as left out, as generated clients send it', async () => {
    const id = (await rule(await valid())).body.id;
    const reply = await api('PATCH', `/ip_policy_rules/${id}`, { cidr: '', description: 'x' });
    expect(reply.status).toBe(200);
    expect(reply.body.cidr).toBe('10.0.0.0/8');
  });
});

it('rules persist in the data file, and a policy deleted before a restart took its rules', async () => {
  const dataFile = join(mkdtempSync(join(tmpdir(), 'burrow-ipr-')), 'sandbox.json');
  const options = { accounts: ACCOUNTS, rateLimit: 'off' as const, dataFile };
  let sandbox = await startSandbox(options);
  let call = apiCaller(sandbox.url, 'alice-key-1');
  const kept = (await call('POST', '/ip_policies', {})).body.id;
  const gone = (await call('POST', '/ip_policies', {})).body.id;
  const rule = (
    await call('POST', '/ip_policy_rules', {
      cidr: '10.0.0.0/8',
      ip_policy_id: kept,
      action: 'deny',
    })
  ).body;
  const orphan = (
    await call('POST', '/ip_policy_rules', { cidr: '::/0', ip_policy_id: gone, action: 'allow' })
  ).body.id;
  await call('DELETE', `/ip_policies/${gone}`);
  await sandbox.close();

  sandbox = await startSandbox(options);
  try {
    call = apiCaller(sandbox.url, 'alice-key-1');
    expect((await call('GET', `/ip_policy_rules/${rule.id}`)).body).toEqual({
      ...rule,
      uri: `${sandbox.url}/ip_policy_rules/${rule.id}`,
      ip_policy: { id: kept, uri: `${sandbox.url}/ip_policies/${kept}` },
    });
    expectError(await call('GET', `/ip_policy_rules/${orphan}`), 'notFound');
  } finally {
    await sandbox.close();
  }
});
