import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { crud } from './crud.ts';
import { deleteRulesOf } from './ip-policy-rules.ts';
import { describedFields } from './render.ts';

/**
 * Deleting a policy is never refused: modules that name it act as if it had no rules, and its
 * rules go with it.
 */
export const ipPolicyHandlers = crud<
  'ipPolicy',
  ParsedBodyOf<'ipPolicies.create'>,
  ParsedBodyOf<'ipPolicies.update'>
>({
  group: 'ipPolicies',
  kind: 'ipPolicy',
  create: (_ctx, fields) => fields,
  render: (record, base) => describedFields(record, base),
  afterDelete: (record, ctx) => deleteRulesOf(ctx.account, record.id),
});
