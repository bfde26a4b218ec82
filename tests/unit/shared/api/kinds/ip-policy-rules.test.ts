import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cidrProblem, parseIPv6 } from '../../../../../shared/api/values/cidr.ts';
import {
  IPPolicyRule,
  IPPolicyRuleCreate,
  IPPolicyRuleUpdate,
} from '../../../../../shared/api/kinds/ip-policy-rules.ts';
import { expectAccepted, expectRejected } from '../expect-validation.ts';

const GOOD = [
  '203.0.113.0/24',
  '0.0.0.0/0',
  '255.255.255.255/32',
  '10.1.2.3/8',
  '::/0',
  '::1/128',
  '2001:db8::/32',
  '2001:DB8:0:0:0:0:0:1/64',
  'fe80::1:2/10',
  '::ffff:192.0.2.1/120',
  '1:2:3:4:5:6:7::/112',
  '::2:3:4:5:6:7:8/16',
  '1:2:3:4:5:6:1.2.3.4/128',
];

const BAD = [
  '',
  '203.0.113.0',
  '203.0.113.0/',
  '203.0.113.0/33',
  '203.0.113.0/024',
  '203.0.113.0/-1',
  '203.0.113.0/ 24',
  '203.0.113/24',
  '203.0.113.0.1/24',
  '256.0.0.0/8',
  '01.2.3.4/8',
  '1.2.3.4/8/8',
  'example.com/24',
  '2001:db8::/129',
  '2001:db8:::/32',
  '2001::db8::1/64',
  '1:2:3:4:5:6:7:8:9/64',
  '1:2:3:4:5:6:7/64',
  '1:2:3:4:5:6:7:8::/64',
  '12345::/16',
  'fe80::1%eth0/64',
  '[2001:db8::]/32',
  '1.2.3.4::/64',
  ' 10.0.0.0/8',
];

describe('CIDR notation', () => {
  it.each(GOOD)('takes %s', (cidr) => {
    expect(cidrProblem(cidr)).toBeUndefined();
    // The address part is one node:net reads the same way.
    expect(isIP(cidr.slice(0, cidr.indexOf('/')))).toBe(cidr.includes(':') ? 6 : 4);
  });

  it.each(BAD)('refuses %j', (cidr) => {
    expect(cidrProblem(cidr)).toEqual(expect.any(String));
  });

  it('takes host bits as written: 192.0.2.7/24 is accepted', () => {
    expect(cidrProblem('192.0.2.7/24')).toBeUndefined();
  });

  it('reads every IPv6 form to the same 16 bytes', () => {
    const full = parseIPv6('2001:0db8:0000:0000:0000:ff00:0042:8329');
    expect(parseIPv6('2001:db8::ff00:42:8329')).toEqual(full);
    expect(parseIPv6('::ffff:192.0.2.1')).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 192, 0, 2, 1,
    ]);
  });

  it('says what is wrong in words', () => {
    expect(cidrProblem('10.0.0.1')).toMatch(/CIDR notation/);
    expect(cidrProblem('10.0.0.0/40')).toMatch(/from 0 to 32 for an IPv4/);
    expect(cidrProblem('2001:db8::/200')).toMatch(/from 0 to 128 for an IPv6/);
    expect(cidrProblem('10.0.0/8')).toMatch(/IPv4 or IPv6 address/);
  });

  it('says a block with text after it is to be written alone, not that its length is wrong', () => {
    expect(cidrProblem('10.0.0.0/8 office')).toBe(
      'must be written as "10.0.0.0/8", with nothing after it',
    );
    expect(cidrProblem('2001:db8::/32,')).toMatch(
      /written as "2001:db8::\/32", with nothing after/,
    );
    expect(cidrProblem('1.2.3.4/8/8')).toMatch(/written as "1.2.3.4\/8", with nothing after/);
    // A length out of range is still that, whatever follows it.
    expect(cidrProblem('10.0.0.0/33 office')).toMatch(/prefix length from 0 to 32/);
  });
});

describe('IP policy rule bodies', () => {
  const body = { cidr: '10.0.0.0/8', ip_policy_id: 'ipp_1', action: 'allow' };

  it('takes a rule with its three required fields, description and metadata', () => {
    expect(expectAccepted(IPPolicyRuleCreate, { ...body, description: 'office' })).toEqual({
      ...body,
      description: 'office',
    });
    expectAccepted(IPPolicyRuleCreate, { ...body, action: 'deny', cidr: '2001:db8::/32' });
  });

  it.each(['cidr', 'ip_policy_id', 'action'])('needs %s (300 naming it)', (field) => {
    const { [field]: _, ...rest } = body as Record<string, string>;
    expect(expectRejected(IPPolicyRuleCreate, rest, 'missingField', field)).toContain(field);
  });

  it('refuses a bad CIDR, action, policy id and oversize description, naming the field', () => {
    expect(
      expectRejected(IPPolicyRuleCreate, { ...body, cidr: '10.0.0.0/33' }, 'invalidValue', 'cidr'),
    ).toMatch(/"cidr" must end with a prefix length from 0 to 32/);
    expectRejected(IPPolicyRuleCreate, { ...body, cidr: 8 }, 'invalidValue', 'cidr');
    expectRejected(IPPolicyRuleCreate, { ...body, action: 'block' }, 'invalidValue', 'action');
    expectRejected(
      IPPolicyRuleCreate,
      { ...body, ip_policy_id: 'x' },
      'invalidValue',
      'ip_policy_id',
    );
    expectRejected(
      IPPolicyRuleCreate,
      { ...body, ip_policy_id: 'cr_1' },
      'invalidReference',
      'ip_policy_id',
    );
    expectRejected(
      IPPolicyRuleCreate,
      { ...body, description: 'é'.repeat(128) },
      'descriptionTooLong',
      'description',
    );
    expectRejected(
      IPPolicyRuleCreate,
      { ...body, metadata: 'x'.repeat(4097) },
      'metadataTooLong',
      'metadata',
    );
  });

  it('updates description, metadata and the block, never the policy or the action', () => {
    expectAccepted(IPPolicyRuleUpdate, { cidr: '::/0', description: '', metadata: '{}' });
    expectAccepted(IPPolicyRuleUpdate, {});
    expectRejected(IPPolicyRuleUpdate, { action: 'deny' }, 'unknownField', 'action');
    expectRejected(IPPolicyRuleUpdate, { ip_policy_id: 'ipp_1' }, 'unknownField', 'ip_policy_id');
    expectRejected(IPPolicyRuleUpdate, { cidr: '1.2.3.4' }, 'invalidValue', 'cidr');
  });

  it('reads a rule with its policy as a Ref', () => {
    const rule = {
      id: 'ipr_1',
      uri: 'http://127.0.0.1/ip_policy_rules/ipr_1',
      created_at: '2026-01-01T00:00:00.000Z',
      cidr: '10.0.0.0/8',
      action: 'deny',
      ip_policy: { id: 'ipp_1', uri: 'http://127.0.0.1/ip_policies/ipp_1' },
    };
    expect(IPPolicyRule.parse(rule)).toEqual(rule);
    expect(IPPolicyRule.safeParse({ ...rule, ip_policy: 'ipp_1' }).success).toBe(false);
  });
});
