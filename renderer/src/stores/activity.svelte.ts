import type { ActivityEntry, ActivityFilter } from '../../../shared/app/activity.ts';
import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import { problemOf } from '../lib/errors.ts';
import type { Toasts } from './toasts.svelte.ts';

/**
 * The activity record as the Activity screen shows it: the entries its filter picks, asked again
 * whenever core says the record changed while the screen is shown (its event carries a count,
 * not the entries, so there is no state to follow, only news to ask after).
 */
export class ActivityState {
  entries = $state<ActivityEntry[] | undefined>();
  private filter: ActivityFilter | undefined;
  private asked = 0;

  constructor(
    private readonly bridge: Bridge,
    private readonly toasts: Toasts,
  ) {}

  start(): () => void {
    return this.bridge.on('activity.appended', () => void this.load());
  }

  /** Shows the entries `filter` picks until `leave`; the record is seen now. */
  show(filter: ActivityFilter): void {
    this.filter = filter;
    void this.load();
    // Seen now: the tray's "new" counts from here.
    void this.bridge.invoke('activity.seen').catch(() => undefined);
  }

  /** Nothing shows the record any more: news no longer asks for it. */
  leave(): void {
    this.filter = undefined;
    this.entries = undefined;
  }

  private async load(): Promise<void> {
    const filter = this.filter;
    if (!filter) return;
    const asked = ++this.asked;
    try {
      const list = await this.bridge.invoke('activity.list', filter);
      // An answer for a filter since changed (or a screen since left) is not what is shown.
      if (asked === this.asked && this.filter === filter) this.entries = list.entries;
    } catch (error) {
      this.toasts.error(problemOf(error));
    }
  }
}
