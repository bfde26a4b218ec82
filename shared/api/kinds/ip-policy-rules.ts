import { z } from 'zod';
import { cidrProblem } from '../values/cidr.ts';
import { describedFields, Ref, resourceFields } from '../values/common.ts';
import { idSchema } from '../values/ids.ts';
import { flag } from '../errors/rules.ts';

/**
 * The entries of an IP policy, a resource of their own as on the platform (the spec shows none;
 * docs/api.md and the gap note say what is taken): an address block and whether it lets
 * connections through. A connection passes an IP restriction when its address matches an allow
 * rule of one of the restriction's policies and no deny rule; with no rule at all, nothing passes.
 */
export const IP_POLICY_RULE_ACTIONS = ['allow', 'deny'] as const;
const IPPolicyRuleAction = z.enum(IP_POLICY_RULE_ACTIONS);
export type IPPolicyRuleAction = z.output<typeof IPPolicyRuleAction>;

/** IPv4 or IPv6 in CIDR notation (`cidrProblem` in cidr.ts says what is refused, and why host bits are not). */
const Cidr = z
  .string()
  .superRefine((s, ctx) => {
    const problem = cidrProblem(s);
    if (problem !== undefined) flag(ctx, [], problem);
  })
  .meta({ description: 'An IPv4 or IPv6 address block in CIDR notation, e.g. 203.0.113.0/24.' });

export const IPPolicyRule = z.looseObject({
  ...resourceFields('ipPolicyRule'),
  cidr: z.string(),
  ip_policy: Ref,
  action: IPPolicyRuleAction,
});
export type IPPolicyRule = z.output<typeof IPPolicyRule>;

export const IPPolicyRuleCreate = z.strictObject({
  ...describedFields,
  cidr: Cidr,
  ip_policy_id: idSchema('ipPolicy'),
  action: IPPolicyRuleAction,
});
export type IPPolicyRuleCreate = z.input<typeof IPPolicyRuleCreate>;

/** The policy and the action are a rule's for good: sending either is an unknown field (214). */
export const IPPolicyRuleUpdate = z.strictObject({
  ...describedFields,
  cidr: Cidr.optional(),
});
export type IPPolicyRuleUpdate = z.input<typeof IPPolicyRuleUpdate>;
