import { z } from 'zod';
import { NoticeKind } from './notifications.ts';

/*
 * The activity record (docs/alerts.md): what happened, per profile, as one JSON line each in the
 * data folder, appended by the app and by `burrow` alike. Times are epoch milliseconds.
 */

/** Kept this long, and at most this many entries a profile, whichever is less. */
export const ACTIVITY_KEEP_MS = 7 * 86_400_000;
export const ACTIVITY_KEEP_ENTRIES = 5_000;

export const ACTIVITY_KINDS = ['notice', 'action', 'rollout'] as const;
const ActivityKind = z.enum(ACTIVITY_KINDS);
export type ActivityKind = z.output<typeof ActivityKind>;

/** Where an action was asked from. */
const ACTION_SOURCES = ['window', 'tray', 'notification', 'command line'] as const;
const ActionSource = z.enum(ACTION_SOURCES);
export type ActionSource = z.output<typeof ActionSource>;

/** Why a notice was not shown when it was decided: a rule's wait, or quiet hours. */
const NoticeHeld = z.enum(['rule', 'quiet hours']);
export type NoticeHeld = z.output<typeof NoticeHeld>;

const base = {
  id: z.string().max(64),
  at: z.number(),
  profileId: z.string().max(64),
  /** A person's words for what happened. */
  title: z.string().max(300),
  detail: z.string().max(1000),
  /** The agent it is about (`Agent.id`), for its link. */
  agentId: z.string().max(64).optional(),
};

export const ActivityEntry = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('notice'),
    ...base,
    notice: NoticeKind,
    /** Set when a rule or quiet hours held it rather than showing it at once. */
    held: NoticeHeld.optional(),
  }),
  z.object({
    kind: z.literal('action'),
    ...base,
    source: ActionSource,
    ok: z.boolean(),
  }),
  z.object({
    kind: z.literal('rollout'),
    ...base,
    step: z.string().max(64),
    /** Absent in records written before rollouts said where they were started. */
    source: ActionSource.optional(),
  }),
]);
export type ActivityEntry = z.output<typeof ActivityEntry>;
/** An entry as it is appended: the record gives its id. */
export type NewActivityEntry = ActivityEntry extends infer E
  ? E extends ActivityEntry
    ? Omit<E, 'id'>
    : never
  : never;

export const ActivityFilter = z.strictObject({
  profileId: z.string().max(64).optional(),
  kind: ActivityKind.optional(),
});
export type ActivityFilter = z.input<typeof ActivityFilter>;

export const ActivityList = z.object({
  /** Newest first. */
  entries: z.array(ActivityEntry),
  /** Entries newer than when the Activity screen was last seen, over every profile. */
  unseen: z.int(),
});
export type ActivityList = z.output<typeof ActivityList>;
