import type { PlanCounts, PlanView, StepView } from '../../../shared/app/ipc/snapshots.ts';
import { KINDS } from '../resources/kinds.ts';
import { maskStep } from './mask.ts';
import type { Plan, PlanStep } from './plan.ts';

function countsOf(plan: Plan): PlanCounts {
  const count = (action: PlanStep['action']) =>
    plan.steps.filter((s) => s.action === action).length;
  return {
    create: count('create'),
    update: count('update'),
    delete: count('delete'),
    unchanged: count('unchanged'),
  };
}

function stepView(step: PlanStep): StepView {
  const base = {
    action: step.action,
    kind: step.kind,
    name: step.name,
    group: KINDS[step.kind].group,
  };
  switch (step.action) {
    case 'create':
      return { ...base, fields: step.fields, ...(step.edge !== undefined && { edge: step.edge }) };
    case 'update':
      return { ...base, id: step.id, changes: step.changes };
    default:
      return { ...base, id: step.id };
  }
}

/** A plan as it may be shown, in a terminal, as JSON or in the window: secrets masked. */
export function planView(plan: Plan): PlanView {
  return {
    counts: countsOf(plan),
    steps: plan.steps.map(maskStep).map(stepView),
    untouched: plan.untouched,
    blockers: plan.blockers,
    prune: plan.prune,
  };
}
