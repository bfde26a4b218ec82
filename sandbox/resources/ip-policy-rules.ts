import { BlockList, isIP } from 'node:net';
import { parseCidr } from '../../shared/api/cidr.ts';
import type { ParsedBodyOf } from '../../shared/api/endpoints.ts';
import type { Account } from '../store/account.ts';
import type { IPPolicyRuleRecord } from '../store/records.ts';
import { crud } from './crud.ts';
import { requireReference } from './references.ts';
import { describedFields, patch, refOf } from './render.ts';

/** A rule belongs to one policy for good (the update body takes neither it nor the action). */
export const ipPolicyRuleHandlers = crud<
  'ipPolicyRule',
  ParsedBodyOf<'ipPolicyRules.create'>,
  ParsedBodyOf<'ipPolicyRules.update'>
>({
  group: 'ipPolicyRules',
  kind: 'ipPolicyRule',
  create: (ctx, fields) => {
    requireReference(ctx.account, ctx.body.ip_policy_id, 'ip_policy_id');
    return {
      ...fields,
      cidr: ctx.body.cidr,
      action: ctx.body.action,
      ip_policy_id: ctx.body.ip_policy_id,
    };
  },
  update: (record, ctx) => patch(record, ctx.body),
  render: (record, base) => ({
    ...describedFields(record, base),
    cidr: record.cidr,
    ip_policy: refOf(base, record.ip_policy_id),
    action: record.action,
  }),
});

/** Deleting a policy deletes its rules (the gap note). */
export function deleteRulesOf(account: Account, policyId: string): void {
  const rules = account.collections.ipPolicyRule;
  const doomed = [...rules.values()].filter((rule) => rule.ip_policy_id === policyId);
  for (const rule of doomed) rules.delete(rule.id);
}

/**
 * Whether a connection from `address` passes an IP restriction made of `rules` (those of every
 * policy the restriction names): it matches an allow rule and no deny rule. No rule at all lets
 * nothing through, and a deleted policy simply has no rules left. An IPv4 address written
 * IPv4-mapped (`::ffff:192.0.2.1`, as a dual-stack socket reports it) matches IPv4 blocks too.
 */
export function admits(
  rules: readonly Pick<IPPolicyRuleRecord, 'cidr' | 'action'>[],
  address: string,
): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  const type = version === 4 ? 'ipv4' : 'ipv6';
  const matches = (action: IPPolicyRuleRecord['action']) => {
    const list = new BlockList();
    for (const rule of rules) {
      const cidr = rule.action === action ? parseCidr(rule.cidr) : undefined;
      if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.version === 4 ? 'ipv4' : 'ipv6');
    }
    return list.check(address, type);
  };
  return matches('allow') && !matches('deny');
}

/** The rules of the policies an edge's or route's `ip_restriction` names, for `admits`. */
export function rulesOfPolicies(
  account: Account,
  policyIds: readonly string[],
): IPPolicyRuleRecord[] {
  const named = new Set(policyIds);
  return [...account.collections.ipPolicyRule.values()].filter((rule) =>
    named.has(rule.ip_policy_id),
  );
}
