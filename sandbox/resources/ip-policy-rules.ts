import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import type { Account } from '../store/account.ts';
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
