import type { driftCalls } from '../../shared/app/ipc/drift.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { HeldSnapshots } from '../snapshot/held-snapshots.ts';
import type { DriftService } from './service.ts';

/** The drift calls of the contract; a comparison reads a snapshot held open. */
export function driftHandlers(
  drift: DriftService,
  snapshots: Pick<HeldSnapshots, 'opened'>,
): HandlersOf<typeof driftCalls> {
  return {
    'drift.state': () => drift.state(),
    'drift.watch': (request) => drift.watch(request),
    'drift.unwatch': (request) => drift.unwatch(request),
    'drift.check': (request) => drift.check(request),
    'drift.accept': (request) => drift.accept(request),
    'drift.compare': async ({ profileId, snapshotId }) => {
      const found = await drift.compareWith(profileId, snapshots.opened(snapshotId));
      if (found === null) return null;
      const { plan: _, ...drifted } = found;
      return drifted;
    },
    'drift.putBack': (request) => drift.putBack(request),
  };
}
