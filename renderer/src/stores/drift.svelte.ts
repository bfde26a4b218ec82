import type { DriftState, DriftStatus } from '../../../shared/app/ipc/drift.ts';
import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import { followState, type FollowedState } from '../lib/follow-state.ts';

/**
 * Every profile's drift watch as core tells it: the checks go on in core whatever the window
 * does, so the window follows `drift.changed` from its start (the sidebar counts what drifted)
 * and asks again when a call it made may have been overtaken (an accept refused as stale).
 */
export class DriftStatuses {
  statuses = $state<DriftState>([]);
  private followed: FollowedState<'drift.changed'> | undefined;
  /** Events heard: a call's answer older than one of them is not shown over it. */
  private heard = 0;

  constructor(private readonly bridge: Bridge) {}

  /** Watched profiles whose live account differs from their baseline. */
  get drifted(): number {
    return this.statuses.filter((s) => s.watching && s.drift !== null).length;
  }

  statusOf(profileId: string): DriftStatus | undefined {
    return this.statuses.find((s) => s.profileId === profileId);
  }

  start(): () => void {
    this.followed = followState(this.bridge, 'drift.changed', (state) => {
      this.statuses = state;
      this.heard += 1;
    });
    void this.refresh();
    return this.followed.stop;
  }

  /** Asks for the whole state now; a failure leaves what was shown (the screen says why calls fail). */
  async refresh(): Promise<void> {
    await this.followed?.ask().catch(() => undefined);
  }

  /**
   * Makes a call that answers one profile's status and shows it until the next event brings them
   * all, unless an event came while the answer was on its way (over HTTP the two travel apart):
   * that event is newer, and the answer would put back what it replaced.
   */
  async answered(make: () => Promise<DriftStatus>): Promise<DriftStatus> {
    const before = this.heard;
    const status = await make();
    if (this.heard === before) this.take(status);
    return status;
  }

  private take(status: DriftStatus): void {
    const known = this.statuses.some((s) => s.profileId === status.profileId);
    this.statuses = known
      ? this.statuses.map((s) => (s.profileId === status.profileId ? status : s))
      : [...this.statuses, status];
  }
}
