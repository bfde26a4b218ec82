import { randomBytes } from 'node:crypto';
import {
  ActivityEntry,
  ACTIVITY_KEEP_ENTRIES,
  ACTIVITY_KEEP_MS,
  type NewActivityEntry,
} from '../../shared/app/activity.ts';
import { jsonOrUndefined } from '../files.ts';

/*
 * An entry as one line of a profile's JSON-lines file, and back. One line is one write() to a file
 * opened O_APPEND, under PIPE_BUF (4,096 bytes on Linux, 512 by POSIX's floor is for pipes: a
 * regular file's O_APPEND write is placed whole at the end), so that lines of two processes never
 * interleave.
 */

/** Under Linux's PIPE_BUF with room to spare. */
export const MAX_LINE_BYTES = 4000;

/** The line for `entry`, its words shortened until the line fits. */
export function lineOf(entry: NewActivityEntry): string {
  const id = `act_${randomBytes(8).toString('hex')}`;
  let detail = entry.detail.slice(0, 1000);
  let title = entry.title.slice(0, 300);
  for (;;) {
    const line = `${JSON.stringify(ActivityEntry.parse({ ...entry, id, title, detail }))}\n`;
    if (Buffer.byteLength(line) <= MAX_LINE_BYTES) return line;
    // Control characters escape to six bytes each: halving the words always ends.
    detail = detail.slice(0, Math.floor(detail.length / 2));
    if (detail === '') title = title.slice(0, Math.floor(title.length / 2));
  }
}

/**
 * The entries a file's text holds, each id once; a line a crash cut short, or a hand edit, is
 * skipped.
 */
export function entriesOf(text: string): ActivityEntry[] {
  const entries: ActivityEntry[] = [];
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = ActivityEntry.safeParse(jsonOrUndefined(line));
    if (!parsed.success || ids.has(parsed.data.id)) continue;
    ids.add(parsed.data.id);
    entries.push(parsed.data);
  }
  return entries;
}

/** What a profile keeps: the last week, and at most its last 5,000 entries. */
export function kept(entries: readonly ActivityEntry[], now: number): ActivityEntry[] {
  return entries.filter((e) => now - e.at < ACTIVITY_KEEP_MS).slice(-ACTIVITY_KEEP_ENTRIES);
}
