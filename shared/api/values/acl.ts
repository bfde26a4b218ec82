import { z } from 'zod';
import { isWildcardDomainName, parseHostport } from './hosts.ts';
import { isLabelPart } from './labels.ts';
import { flag } from '../errors/rules.ts';

/**
 * One rule of a credential's ACL. `*` permits everything; every other rule is `bind:<target>`,
 * restricting what an agent using the credential may bind: a domain (`example.com`, or
 * `*.example.com` for every subdomain and the wildcard itself), a label `key=value` (either side
 * may be `*`), or an address `<host>:<port>`.
 */
export type AclRule =
  | { readonly kind: 'all' }
  | { readonly kind: 'domain'; readonly domain: string; readonly wildcard: boolean }
  | { readonly kind: 'label'; readonly key: string; readonly value: string }
  | { readonly kind: 'address'; readonly host: string; readonly port: number };

export type AclRuleParse =
  | { readonly ok: true; readonly rule: AclRule }
  | { readonly ok: false; readonly reason: string };

const WILDCARD = '*';
const BIND = 'bind:';

export function parseAclRule(rule: string): AclRuleParse {
  if (rule === WILDCARD) return { ok: true, rule: { kind: 'all' } };
  if (!rule.startsWith(BIND)) return { ok: false, reason: 'must be "*" or a "bind:<target>" rule' };
  const target = rule.slice(BIND.length);
  if (target.includes('=')) {
    const [key = '', value = '', ...rest] = target.split('=');
    const part = (s: string) => s === WILDCARD || isLabelPart(s);
    return rest.length === 0 && part(key) && part(value)
      ? { ok: true, rule: { kind: 'label', key, value } }
      : {
          ok: false,
          reason: 'a label bind rule must be "bind:<key>=<value>", either side a label part or "*"',
        };
  }
  if (target.includes(':')) {
    const address = parseHostport(target);
    return address
      ? { ok: true, rule: { kind: 'address', ...address } }
      : { ok: false, reason: 'an address bind rule must be "bind:<host>:<port>"' };
  }
  if (isWildcardDomainName(target)) {
    const wildcard = target.startsWith('*.');
    return {
      ok: true,
      rule: {
        kind: 'domain',
        domain: (wildcard ? target.slice(2) : target).toLowerCase(),
        wildcard,
      },
    };
  }
  return {
    ok: false,
    reason:
      'the target of a bind rule must be a domain, a label "key=value" or an address "host:port"',
  };
}

function permits(rule: AclRule, bind: string): boolean {
  switch (rule.kind) {
    case 'all':
      return true;
    case 'label': {
      const parts = bind.split('=');
      if (parts.length !== 2) return false;
      const [key, value] = parts;
      return (
        (rule.key === WILDCARD || rule.key === key) &&
        (rule.value === WILDCARD || rule.value === value)
      );
    }
    case 'address': {
      const address = parseHostport(bind);
      return address?.host === rule.host && address.port === rule.port;
    }
    case 'domain': {
      const name = bind.toLowerCase();
      if (!isWildcardDomainName(name)) return false;
      return rule.wildcard ? name.endsWith(`.${rule.domain}`) : name === rule.domain;
    }
  }
}

/**
 * Whether a credential's ACL lets an agent bind `bind` (a domain, a `key=value` label or a
 * `host:port` address). No ACL, or an empty one, means no restriction. Rules that do not parse
 * permit nothing; stored ACLs never hold any.
 */
export function aclPermitsBind(acl: readonly string[] | null | undefined, bind: string): boolean {
  if (!acl || acl.length === 0) return true;
  return acl.some((text) => {
    const parsed = parseAclRule(text);
    return parsed.ok && permits(parsed.rule, bind);
  });
}

const AclRuleText = z.string().superRefine((text, ctx) => {
  const parsed = parseAclRule(text);
  if (!parsed.ok) flag(ctx, [], `is not a valid ACL rule: ${parsed.reason}`, 'invalidAclRule');
});

export const Acl = z.array(AclRuleText);
