import type { snapshotCalls } from '../../shared/app/ipc/snapshots.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { HeldSnapshots } from './held-snapshots.ts';

/** The snapshot calls of the contract, carried to the held snapshots. */
export function snapshotHandlers(snapshots: HeldSnapshots): HandlersOf<typeof snapshotCalls> {
  return {
    'snapshots.export': (request) => snapshots.export(request),
    'snapshots.open': (request) => snapshots.open(request),
    'snapshots.openFile': () => snapshots.openFile(),
    'snapshots.plan': (request) => snapshots.plan(request),
    'snapshots.apply': (request) => snapshots.apply(request),
    'snapshots.stopped': (request) => snapshots.stopped(request),
    'snapshots.carryOn': (request) => snapshots.carryOn(request),
    'snapshots.discard': (request) => snapshots.discard(request),
    'snapshots.cancel': (requestId) => snapshots.cancel(requestId),
  };
}
