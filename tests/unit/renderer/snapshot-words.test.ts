import { expect, it } from 'vitest';
import { fieldLabel, kindPlural } from '../../../renderer/src/screens/snapshots/words.ts';

it('names IP policy rules and their fields in a plan, though no form of their own names them', () => {
  expect(kindPlural('ipPolicyRules')).toBe('IP policy rules');
  expect(fieldLabel('ipPolicyRules', 'cidr')).toBe('Address block (CIDR)');
  expect(fieldLabel('ipPolicyRules', 'action')).toBe('Action');
  expect(fieldLabel('ipPolicyRules', 'ip_policy_id')).toBe('IP policy');
  expect(fieldLabel('ipPolicyRules', 'description')).toBe('Description');
});
