import { describe, expect, it } from 'vitest';
import { Acl, aclPermitsBind, parseAclRule } from '../../../../../shared/api/values/acl.ts';
import { CredentialCreate } from '../../../../../shared/api/kinds/credentials.ts';
import { expectAccepted, expectRejected } from '../expect-validation.ts';

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

  it.each([
    {
      rule: 'a wildcard domain rule matches subdomains and the wildcard itself, not the bare domain',
      acl: ['bind:*.example.com'],
      permits: ['a.example.com', 'b.a.example.com', '*.example.com', 'A.Example.Com'],
      refuses: ['example.com', 'badexample.com', 'a.example.org'],
    },
    {
      rule: 'an exact domain rule matches only that domain',
      acl: ['bind:example.com'],
      permits: ['example.com', 'EXAMPLE.com'],
      refuses: ['a.example.com', '*.example.com'],
    },
    {
      rule: 'a label rule with a wildcard key matches the value under any key',
      acl: ['bind:*=prod'],
      permits: ['env=prod', 'tier=prod'],
      refuses: ['env=dev'],
    },
    {
      rule: 'a label rule with a wildcard value matches any value of its key',
      acl: ['bind:env=*'],
      permits: ['env=anything'],
      refuses: ['tier=prod'],
    },
    {
      rule: 'an exact label rule matches its value with case',
      acl: ['bind:env=prod'],
      permits: ['env=prod'],
      refuses: ['env=Prod'],
    },
    {
      rule: 'a label rule of two wildcards matches any label, not a domain',
      acl: ['bind:*=*'],
      permits: ['a=b'],
      refuses: ['example.com'],
    },
    {
      rule: 'an address rule matches exactly, host without case',
      acl: ['bind:1.tcp.example.com:20002'],
      permits: ['1.tcp.example.com:20002', '1.TCP.example.com:20002'],
      refuses: ['1.tcp.example.com:20003', '1.tcp.example.com'],
    },
    {
      rule: 'any matching rule permits',
      acl: ['bind:a.com', 'bind:env=prod'],
      permits: ['env=prod'],
      refuses: ['b.com'],
    },
    {
      rule: 'a rule that does not parse permits nothing',
      acl: ['garbage'],
      permits: [],
      refuses: ['b.com'],
    },
  ])('$rule', ({ acl, permits, refuses }) => {
    for (const bind of permits) expect(aclPermitsBind(acl, bind), bind).toBe(true);
    for (const bind of refuses) expect(aclPermitsBind(acl, bind), bind).toBe(false);
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
