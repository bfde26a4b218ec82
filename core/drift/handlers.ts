import type { driftCalls } from '../../shared/app/ipc/drift.ts';
import { AppError } from '../errors.ts';
import type { AppHandlers } from '../ipc/handlers.ts';

/*
 * The drift calls of the contract. Drift watch is being built: until its service lands, every
 * profile reads as not watched and the actions say so.
 */
const pending = (): never => {
  throw new AppError('DRIFT_UNAVAILABLE', 'Drift watch is not available in this build');
};

export function driftHandlers(): Pick<AppHandlers, keyof typeof driftCalls> {
  return {
    'drift.state': () => [],
    'drift.watch': pending,
    'drift.unwatch': pending,
    'drift.check': pending,
    'drift.accept': pending,
    'drift.putBack': pending,
  };
}
