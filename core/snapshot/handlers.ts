import type { snapshotCalls } from '../../shared/ipc/snapshots.ts';
import type { AppHandlers } from '../ipc/handlers.ts';
import type { SnapshotService } from './service.ts';

/** The snapshot calls of the contract, carried to the snapshot service. */
export function snapshotHandlers(
  snapshots: SnapshotService,
): Pick<AppHandlers, keyof typeof snapshotCalls> {
  return {
    'snapshots.export': (request) => snapshots.export(request),
    'snapshots.open': (request) => snapshots.open(request),
    'snapshots.openFile': () => snapshots.openFile(),
    'snapshots.plan': (request) => snapshots.plan(request),
    'snapshots.apply': (request) => snapshots.apply(request),
    'snapshots.cancel': (requestId) => snapshots.cancel(requestId),
  };
}
