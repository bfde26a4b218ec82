import { z } from 'zod';
import { ActivityFilter, ActivityList } from '../activity.ts';

/*
 * The activity record for the window: its entries, filtered, and the Activity screen seen (the
 * tray's "3 new" counts from then).
 */

export const activityCalls = {
  'activity.list': { args: z.tuple([ActivityFilter]), result: ActivityList },
  /** The Activity screen was seen now: nothing is new any more. */
  'activity.seen': { args: z.tuple([]), result: z.null() },
} as const;

/**
 * The count of new entries changed (something was added, here or by `burrow`, or the screen was
 * seen): a window showing the record asks again.
 */
export const activityEvents = { 'activity.appended': z.object({ unseen: z.int() }) } as const;
