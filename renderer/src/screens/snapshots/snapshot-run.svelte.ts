import type { Bridge } from '../../../../shared/app/ipc/bridge.ts';
import type { IpcError } from '../../../../shared/app/ipc/contract.ts';
import type { SnapshotProgress } from '../../../../shared/app/ipc/snapshots.ts';
import { problemOf } from '../../lib/errors.ts';
import { requestId } from './words.ts';

/**
 * The one snapshot call a form runs at a time: its request id while it runs, and the progress
 * core reports for that id (another form's run passes by). Made while a component is set up,
 * so it listens for as long as the component lives; `bridge` is read
 * as the component's props are, at the time of use.
 */
export class SnapshotRun {
  id = $state<string | undefined>();
  progress = $state<SnapshotProgress | undefined>();

  constructor(private readonly bridge: () => Bridge) {
    $effect(() =>
      this.bridge().on('snapshots.progress', (p) => {
        if (p.requestId === this.id) this.progress = p;
      }),
    );
  }

  /** Starts a run of `what` (its id names it), with no progress yet; answers its request id. */
  begin(what: string): string {
    const id = requestId(what);
    this.id = id;
    this.progress = undefined;
    return id;
  }

  /** Runs `call` as a run of `what`, given its request id; answers its failure, or undefined. */
  async attempt(what: string, call: (id: string) => Promise<void>): Promise<IpcError | undefined> {
    const id = this.begin(what);
    try {
      await call(id);
      return undefined;
    } catch (error) {
      return problemOf(error);
    } finally {
      this.end();
    }
  }

  end(): void {
    this.id = undefined;
  }

  cancel(): void {
    void this.bridge().invoke('snapshots.cancel', this.id ?? '');
  }
}
