import type { StepView } from '../../../../shared/app/ipc/snapshots.ts';
import { KINDS } from '../../resources/kinds/kind-list.ts';
import { IP_POLICY_RULE_ACTIONS } from '../../../../shared/api/kinds/ip-policy-rules.ts';
import { describedFields, type Field, type ModuleSpec } from '../../resources/kinds/kind-shape.ts';
import { ROUTE_MODULES } from '../../resources/kinds/route-modules.ts';

/*
 * The window's words for what a plan names: a kind by its catalog group, a field or module by
 * the label the resource forms give it, a value as short text. Secrets arrive masked from core.
 */

/** IP policy rules live on their policy's page, edited in rows rather than a form. */
const IP_POLICY_RULE_FIELDS: readonly Field[] = [
  { name: 'cidr', label: 'Address block (CIDR)', type: 'text' },
  { name: 'action', label: 'Action', type: 'select', options: IP_POLICY_RULE_ACTIONS },
  { name: 'ip_policy_id', label: 'IP policy', type: 'text' },
  ...describedFields,
];

/** A kind's plural and what names its fields; routes and rules live inside their owner's screen. */
function wordsOf(
  group: string,
): { plural: string; fields: readonly (Field | ModuleSpec)[] } | undefined {
  if (group === 'httpsEdgeRoutes') return { plural: 'HTTPS edge routes', fields: ROUTE_MODULES };
  if (group === 'ipPolicyRules')
    return { plural: 'IP policy rules', fields: IP_POLICY_RULE_FIELDS };
  const k = KINDS.find((kind) => kind.group === group);
  return k && { plural: k.plural, fields: [...k.create, ...k.update, ...(k.modules ?? [])] };
}

/** `ip_restriction` → `Ip restriction`, for a field no form names. */
const humanize = (name: string) => {
  const words = name.replaceAll('_', ' ');
  return `${words[0]?.toUpperCase() ?? ''}${words.slice(1)}`;
};

export function kindPlural(group: string): string {
  const plural = wordsOf(group)?.plural;
  return plural ? `${plural[0]?.toUpperCase() ?? ''}${plural.slice(1)}` : humanize(group);
}

export function fieldLabel(group: string, path: string): string {
  const found = wordsOf(group)?.fields.find(
    (f) => f.name === path || ('read' in f && f.read === path),
  );
  return found?.label ?? humanize(path);
}

/**
 * How a diff's steps read: a plan's say what applying it does, drift's what changed outside
 * Burrow. Each action's verb, its words after a count, and the heads of an update's two columns.
 */
export type DiffWords = {
  readonly verbs: Readonly<Record<StepView['action'], string>>;
  readonly counted: Readonly<Record<StepView['action'], string>>;
  readonly from: string;
  readonly to: string;
};

export const PLAN_WORDS: DiffWords = {
  verbs: { create: 'Create', update: 'Update', delete: 'Delete', unchanged: 'Unchanged' },
  counted: {
    create: 'to create',
    update: 'to update',
    delete: 'to delete',
    unchanged: 'unchanged',
  },
  from: 'Now',
  to: 'After',
};

/** "about 12 s left", "about 3 min left", or nothing before there is a pace to go by. */
export function timeLeft(ms: number | null): string {
  if (ms === null) return '';
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 90 ? `about ${seconds} s left` : `about ${Math.ceil(seconds / 60)} min left`;
}

let requests = 0;
/** An id for one run's progress events and its cancel. */
export function requestId(what: string): string {
  requests += 1;
  return `${what}-${Date.now().toString(36)}-${requests}`;
}
