import type { PlanView } from '../shared/app/ipc/snapshots.ts';
import { escapeControls } from '../shared/app/printable.ts';

const SIGN = { create: '+', update: '~', delete: '-', unchanged: '=' } as const;

const show = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));

/**
 * The plan for a person: each change field by field, secrets masked, then the counts. Names and
 * values come from a file and an account: each line is written with its control characters escaped.
 */
export function planText(plan: PlanView, target: string): string {
  const lines: string[] = [];
  for (const step of plan.steps) {
    if (step.action === 'unchanged') continue;
    lines.push(`${SIGN[step.action]} ${step.action} ${step.name}`);
    if (step.action === 'create')
      for (const [key, value] of Object.entries(step.fields ?? {}))
        lines.push(`    ${key}: ${show(value)}`);
    if (step.action === 'update')
      for (const c of step.changes ?? [])
        lines.push(`    ${c.path}: ${show(c.from)} → ${show(c.to)}`);
  }
  const n = plan.counts;
  lines.push(
    `${target}: ${n.create} to create, ${n.update} to update, ${n.delete} to delete, ` +
      `${n.unchanged} unchanged.`,
  );
  if (plan.untouched.length > 0)
    lines.push(
      `Not in the snapshot, left alone (--prune deletes them): ${plan.untouched.join(', ')}`,
    );
  if (plan.blockers.length > 0) {
    lines.push('Blocked: nothing can be applied until these are resolved:');
    for (const b of plan.blockers) lines.push(`  ${b.name} ${b.field}: ${b.reason}`);
  }
  return `${lines.map(escapeControls).join('\n')}\n`;
}

/** The plan for a program: what `planText` shows, as data, secrets masked. */
export function planJson(view: PlanView, target: string) {
  const steps = view.steps
    .filter((step) => step.action !== 'unchanged')
    .map(({ group: _, ...step }) => step);
  return {
    target,
    changes: steps.length > 0,
    counts: view.counts,
    steps,
    untouched: view.untouched,
    blockers: view.blockers,
  };
}
