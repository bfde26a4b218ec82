import type { NewActivityEntry } from '../../shared/app/activity.ts';
import type { activityCalls } from '../../shared/app/ipc/activity.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { ActivityRecord } from './record.ts';
import type { UnseenActivity } from './unseen.ts';

/** The app trims the record this often (and at start); `burrow` only appends. */
const TRIM_EVERY_MS = 3_600_000;

/** The activity calls of the contract. */
export function activityHandlers(
  activity: ActivityRecord,
  unseen: UnseenActivity,
): HandlersOf<typeof activityCalls> {
  return {
    'activity.list': (filter) => activity.list(filter),
    'activity.seen': () => {
      activity.seen();
      unseen.refresh();
      return null;
    },
  };
}

/**
 * Appends for the app, each counted at once in `unseen`; a record that cannot be written is
 * logged, never the failure of what it records. The app trims at start and every hour (a command,
 * which lives seconds, only appends); returns the stopper with the appender.
 */
export function appRecorder(
  activity: ActivityRecord,
  unseen: UnseenActivity,
  { trim: trims }: { readonly trim: boolean } = { trim: true },
): { readonly record: (entry: NewActivityEntry) => void; readonly stop: () => void } {
  const trim = () => {
    try {
      activity.trim();
    } catch (error) {
      console.warn(`The activity record could not be trimmed: ${String(error)}`);
    }
  };
  if (trims) trim();
  const timer = trims ? setInterval(trim, TRIM_EVERY_MS) : undefined;
  timer?.unref();
  return {
    record: (entry) => {
      try {
        activity.append(entry);
        unseen.refresh();
      } catch (error) {
        console.warn(`The activity record could not be written: ${String(error)}`);
      }
    },
    stop: () => clearInterval(timer),
  };
}
