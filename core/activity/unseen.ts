import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import { Emitter } from '../../shared/app/emitter.ts';
import type { ActivityRecord } from './record.ts';

/** Lines `burrow` appends come in bursts (one per agent): one count for a burst. */
const SETTLE_MS = 200;

/**
 * How many entries are new since the Activity screen was last seen, for the tray's "3 new": counted
 * again when the app appends or the screen is seen, and when another process (`burrow`) writes to
 * the record's folder.
 */
export class UnseenActivity {
  private readonly changes = new Emitter<number>('the unseen activity');
  private current: number;
  private readonly watcher: FSWatcher | undefined;
  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly activity: ActivityRecord) {
    this.current = this.count();
    this.watcher = this.watchFolder();
  }

  unseen(): number {
    return this.current;
  }

  onChange(listener: (unseen: number) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** Counts again now; listeners hear only a change. */
  refresh(): number {
    const next = this.count();
    if (next !== this.current) {
      this.current = next;
      this.changes.emit(next);
    }
    return next;
  }

  close(): void {
    clearTimeout(this.settle);
    this.watcher?.close();
  }

  private count(): number {
    try {
      return this.activity.list().unseen;
    } catch (error) {
      console.warn(`The activity record could not be read: ${String(error)}`);
      return this.current;
    }
  }

  private watchFolder(): FSWatcher | undefined {
    try {
      mkdirSync(this.activity.dir, { recursive: true, mode: 0o700 });
      const watcher = watch(this.activity.dir, { persistent: false }, () => {
        clearTimeout(this.settle);
        this.settle = setTimeout(() => this.refresh(), SETTLE_MS);
        this.settle.unref();
      });
      // A folder that cannot be watched leaves the count to the app's own appends.
      watcher.on('error', () => watcher.close());
      return watcher;
    } catch {
      return undefined;
    }
  }
}
