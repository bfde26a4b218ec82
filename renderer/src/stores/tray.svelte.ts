import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { TrayModel } from '../../../shared/app/tray.ts';
import { followState } from '../lib/follow-state.ts';

/** The tray's model as core builds it: what the header's tray panel draws in browser mode. */
export class TrayState {
  model = $state<TrayModel | undefined>();

  constructor(private readonly bridge: Bridge) {}

  start(): () => void {
    const followed = followState(this.bridge, 'tray.changed', (model) => {
      this.model = model;
    });
    // Until core answers, the tray panel says it is waiting.
    void followed.ask().catch(() => undefined);
    return followed.stop;
  }
}
