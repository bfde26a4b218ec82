import type { ApplyOutcome } from '../../../shared/app/ipc/snapshots.ts';
import { ApplyBlockedError, ApplyStepError, type ApplyResult } from './apply.ts';

export type ApplyFailure = Extract<ApplyOutcome, { ok: false }>;
/** The failure of an apply's step as the window shows a call's (the dispatcher's wording). */
export type Describe = (error: unknown) => ApplyFailure['error'];

export function applied(result: ApplyResult): ApplyOutcome {
  const { created, updated, deleted, unchanged, resumed } = result;
  return { ok: true, created, updated, deleted, unchanged, resumed };
}

/** An apply that stopped, as the window shows it: the error, the step, what was done. */
export function applyFailure(error: unknown, cancelled: boolean, describe: Describe): ApplyFailure {
  const pick = (s: { action: ApplyFailure['done'][number]['action']; name: string }) => ({
    action: s.action,
    name: s.name,
  });
  if (error instanceof ApplyBlockedError)
    return {
      ok: false,
      error: { code: 'SNAPSHOT_BLOCKED', message: error.message },
      step: null,
      done: [],
      cancelled,
    };
  if (error instanceof ApplyStepError)
    return {
      ok: false,
      error: describe(error.cause),
      step: pick(error.step),
      done: error.done.map(pick),
      cancelled,
    };
  return { ok: false, error: describe(error), step: null, done: [], cancelled };
}
