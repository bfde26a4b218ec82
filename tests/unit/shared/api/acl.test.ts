import { describe, expect, it } from 'vitest';
import { Acl, aclPermitsBind, parseAclRule } from '../../../../shared/api/acl.ts';
import { CredentialCreate } from '../../../../shared/api/credentials.ts';
import { expectAccepted, expectRejected } from './expect-validation.ts';

describe('parseAclRule', () => {
  it.each([
    ['*', { kind: 'all' }],
    ['bind:example.com', { kind: 'domain', domain: 'example.com', wildcard: false }],
    ['bind:Example.COM', { kind: 'domain', domain: 'example.com', wildcard: false }],
    ['bind:*.example.com', { kind: 'domain', domain: 'example.com', wildcard: true }],
    ['bind:localhost', { kind: 'domain', domain: 'localhost', wildcard: false }],
    ['bind:env=prod', { kind: 'label', key: 'env', value: 'prod' }],
    ['bind:*=prod', { kind: 'label', key: '*', value: 'prod' }],
    ['bind:env=*', { kind: 'label', key: 'env', value: '*' }],
    ['bind:*=*', { kind: 'label', key: '*', value: '*' }],
    ['bind:dc.region=eu-west_1', { kind: 'label', key: 'dc.region', value: 'eu-west_1' }],
    ['bind:1.tcp.example.com:20002', { kind: 'address', host: '1.tcp.example.com', port: 20002 }],
    ['bind:10.0.0.1:22', { kind: 'address', host: '10.0.0.1', port: 22 }],
    ['bind:[::1]:8080', { kind: 'address', host: '[::1]', port: 8080 }],
  ])('accepts %s', (text, rule) => {
    expect(parseAclRule(text)).toEqual({ ok: true, rule });
  });

  it.each([
    '',
    '**',
    'bind:',
    'bind:*',
    'Bind:example.com',
    'bind example.com',
    'connect:example.com',
    'bind:*.',
    'bind:**.example.com',
    'bind:a.*.example.com',
    'bind:exa mple.com',
    'bind:-bad.example.com',
    'bind:example.com.',
    'bind:=prod',
    'bind:env=',
    'bind:a=b=c',
    'bind:env=pr od',
    'bind:example.com:0',
    'bind:example.com:65536',
    'bind:example.com:http',
    'bind:[nope]:80',
    ' bind:example.com',
  ])('refuses %j', (text) => {
    const parsed = parseAclRule(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).not.toBe('');
  });
});

describe('aclPermitsBind', () => {
  it('permits everything without an ACL, with an empty one, or with "*"', () => {
    for (const acl of [undefined, null, [], ['*'], ['bind:x.com', '*']])
      for (const bind of ['a.example.com', 'env=prod', 'host.example.com:443'])
        expect(aclPermitsBind(acl, bind)).toBe(true);
  });

  it('matches a wildcard domain rule against subdomains and the wildcard itself, not the bare domain', () => {
    const acl = ['bind:*.example.com'];
    expect(aclPermitsBind(acl, 'a.example.com')).toBe(true);
    expect(aclPermitsBind(acl, 'b.a.example.com')).toBe(true);
    expect(aclPermitsBind(acl, '*.example.com')).toBe(true);
    expect(aclPermitsBind(acl, 'A.Example.Com')).toBe(true);
    expect(aclPermitsBind(acl, 'example.com')).toBe(false);
    expect(aclPermitsBind(acl, 'badexample.com')).toBe(false);
    expect(aclPermitsBind(acl, 'a.example.org')).toBe(false);
  });

  it('matches an exact domain rule only against that domain', () => {
    const acl = ['bind:example.com'];
    expect(aclPermitsBind(acl, 'example.com')).toBe(true);
    expect(aclPermitsBind(acl, 'EXAMPLE.com')).toBe(true);
    expect(aclPermitsBind(acl, 'a.example.com')).toBe(false);
    expect(aclPermitsBind(acl, '*.example.com')).toBe(false);
  });

  it('matches label rules with wildcard keys and values', () => {
    expect(aclPermitsBind(['bind:*=prod'], 'env=prod')).toBe(true);
    expect(aclPermitsBind(['bind:*=prod'], 'tier=prod')).toBe(true);
    expect(aclPermitsBind(['bind:*=prod'], 'env=dev')).toBe(false);
    expect(aclPermitsBind(['bind:env=*'], 'env=anything')).toBe(true);
    expect(aclPermitsBind(['bind:env=*'], 'tier=prod')).toBe(false);
    expect(aclPermitsBind(['bind:env=prod'], 'env=prod')).toBe(true);
    expect(aclPermitsBind(['bind:env=prod'], 'env=Prod')).toBe(false);
    expect(aclPermitsBind(['bind:*=*'], 'a=b')).toBe(true);
    expect(aclPermitsBind(['bind:*=*'], 'example.com')).toBe(false);
  });

  it('matches address rules exactly, host without case', () => {
    const acl = ['bind:1.tcp.example.com:20002'];
    expect(aclPermitsBind(acl, '1.tcp.example.com:20002')).toBe(true);
    expect(aclPermitsBind(acl, '1.TCP.example.com:20002')).toBe(true);
    expect(aclPermitsBind(acl, '1.tcp.example.com:20003')).toBe(false);
    expect(aclPermitsBind(acl, '1.tcp.example.com')).toBe(false);
  });

  it('permits when any rule matches, and nothing through a rule that does not parse', () => {
    expect(aclPermitsBind(['bind:a.com', 'bind:env=prod'], 'env=prod')).toBe(true);
    expect(aclPermitsBind(['bind:a.com', 'bind:env=prod'], 'b.com')).toBe(false);
    expect(aclPermitsBind(['garbage'], 'b.com')).toBe(false);
  });
});

describe('acl in credential bodies', () => {
  it('accepts valid rules', () => {
    expect(
      Acl.safeParse(['*', 'bind:*.example.com', 'bind:*=prod', 'bind:h.example.com:443']).success,
    ).toBe(true);
    expectAccepted(CredentialCreate, { acl: [] });
  });

  it('refuses an invalid rule with ERR_SERVICE_309 naming its index', () => {
    const msg = expectRejected(
      CredentialCreate,
      { acl: ['bind:a.com', 'bind:'] },
      'invalidAclRule',
      'acl[1]',
    );
    expect(msg).toMatch(/^"acl\[1\]" is not a valid ACL rule/);
    expectRejected(CredentialCreate, { acl: 'bind:a.com' }, 'invalidValue', 'acl');
    expectRejected(CredentialCreate, { acl: [3] }, 'invalidValue', 'acl[0]');
  });
});
