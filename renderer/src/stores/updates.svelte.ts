import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { UpdateState } from '../../../shared/app/ipc/updates.ts';
import { followState, type FollowedState } from '../lib/follow-state.ts';

/**
 * Burrow's own updates as core tells them: core checks at start and every 6 hours whatever the
 * window shows, so the window follows `updates.changed` from its start and Settings reads it.
 */
export class UpdatesState {
  state = $state<UpdateState | undefined>();
  private followed: FollowedState<'updates.changed'> | undefined;

  constructor(private readonly bridge: Bridge) {}

  start(): () => void {
    this.followed = followState(this.bridge, 'updates.changed', (state) => {
      this.state = state;
    });
    // Until core answers, Settings shows no Updates section.
    void this.followed.ask().catch(() => undefined);
    return this.followed.stop;
  }

  /** Checks the feed now; fails as the call fails. */
  check(): Promise<void> {
    return this.answered(() => this.bridge.invoke('updates.check'));
  }

  /** Downloads the offered version; fails as the call fails. */
  download(): Promise<void> {
    return this.answered(() => this.bridge.invoke('updates.download'));
  }

  /** The person's consent: Burrow quits and installs the ready update. */
  install(): Promise<void> {
    return this.answered(() => this.bridge.invoke('updates.install'));
  }

  /** A call's answer, unless an event already told something newer (the download went on). */
  private async answered(make: () => Promise<UpdateState>): Promise<void> {
    if (this.followed) return this.followed.call(make);
    this.state = await make();
  }
}
