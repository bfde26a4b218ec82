import type { Bridge } from '../../../../shared/app/ipc/bridge.ts';
import type { SnapshotProgress } from '../../../../shared/app/ipc/snapshots.ts';
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

  end(): void {
    this.id = undefined;
  }

  cancel(): void {
    void this.bridge().invoke('snapshots.cancel', this.id ?? '');
  }
}
