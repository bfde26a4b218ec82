import type { driftCalls } from '../../shared/app/ipc/drift.ts';
import type { AppHandlers } from '../ipc/handlers.ts';
import type { DriftService } from './service.ts';

/** The drift calls of the contract. */
export function driftHandlers(drift: DriftService): Pick<AppHandlers, keyof typeof driftCalls> {
  return {
    'drift.state': () => drift.state(),
    'drift.watch': (request) => drift.watch(request),
    'drift.unwatch': (request) => drift.unwatch(request),
    'drift.check': (request) => drift.check(request),
    'drift.accept': (request) => drift.accept(request),
    'drift.putBack': (request) => drift.putBack(request),
  };
}
