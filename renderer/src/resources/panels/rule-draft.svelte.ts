import { utf8ByteLength } from '../../../../shared/api/values/bytes.ts';
import { cidrProblem } from '../../../../shared/api/values/cidr.ts';
import { DESCRIPTION_MAX_BYTES } from '../../../../shared/api/values/common.ts';
import type {
  IPPolicyRule,
  IPPolicyRuleAction,
} from '../../../../shared/api/kinds/ip-policy-rules.ts';
import type { IpcError } from '../../../../shared/app/ipc/contract.ts';

export type RuleValues = { cidr: string; action: IPPolicyRuleAction; description: string };
export type RuleProblems = Partial<Record<keyof RuleValues, string>>;

export const CIDR = 'Address block (CIDR)';
export const RULE_LABELS: Readonly<Record<keyof RuleValues, string>> = {
  cidr: CIDR,
  action: 'Action',
  description: 'Description',
};

export const ruleName = (rule: Pick<IPPolicyRule, 'action' | 'cidr'>) =>
  `${rule.action} rule ${rule.cidr}`;

/** What is wrong with a row, field by field, in the words beside each field. */
function problemsOf(values: RuleValues): RuleProblems {
  const problems: RuleProblems = {};
  const cidr = values.cidr.trim();
  const why = cidr === '' ? 'is required' : cidrProblem(cidr);
  if (why !== undefined) problems.cidr = `${CIDR} ${why}`;
  if (utf8ByteLength(values.description) > DESCRIPTION_MAX_BYTES)
    problems.description = `Description must be at most ${DESCRIPTION_MAX_BYTES} bytes of UTF-8`;
  return problems;
}

/**
 * One row's values as typed: a rule being edited, or the new one. Its problems show from the
 * first try to save on, each gone as soon as its field is right; an API refusal stays on its
 * field until that row is typed in again.
 */
export class RuleDraft {
  values: RuleValues = $state({ cidr: '', action: 'allow', description: '' });
  tried = $state(false);
  refused = $state<RuleProblems>({});
  readonly problems = $derived(
    this.tried ? { ...problemsOf(this.values), ...this.refused } : ({} as RuleProblems),
  );
  #start: RuleValues;

  constructor(rule?: IPPolicyRule) {
    this.#start = rule
      ? { cidr: rule.cidr, action: rule.action, description: rule.description ?? '' }
      : { ...this.values };
    this.values = { ...this.#start };
  }

  /** Something typed that leaving the row would lose. */
  get changed(): boolean {
    return !this.holds(this.#start);
  }

  /** Whether the row still holds just these values. */
  holds(values: RuleValues): boolean {
    return (Object.keys(values) as (keyof RuleValues)[]).every((k) => this.values[k] === values[k]);
  }

  /** The first field with a problem, after a try to save; none when the row may be sent. */
  try(): keyof RuleValues | undefined {
    this.tried = true;
    this.refused = {};
    return this.#first(problemsOf(this.values));
  }

  /** The API's refusal on the field it names; false when it names none of the row's. */
  refuse(problem: IpcError): keyof RuleValues | false {
    const field = problem.field as keyof RuleValues | undefined;
    if (field === undefined || !(field in RULE_LABELS)) return false;
    this.refused = { [field]: `${RULE_LABELS[field]}: ${problem.message}` };
    return field;
  }

  #first(problems: RuleProblems): keyof RuleValues | undefined {
    return (['cidr', 'description'] as const).find((f) => problems[f] !== undefined);
  }
}
