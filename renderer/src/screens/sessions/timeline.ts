import { clockTime, duration } from '../../../../shared/app/clock.ts';
import type { Agent, AgentMark } from '../../../../shared/app/agents.ts';

/*
 * An agent's last day as a picture draws it: bands and marks placed as fractions of the window
 * (so the SVG and the focusable layer over it share one geometry), and the words a person reads
 * instead of the picture.
 */

const DAY_MS = 86_400_000;

/** Kinds drawn as marks: going on- and offline are already the bands' edges. */
const MARKED: readonly AgentMark['kind'][] = ['restarted', 'updated', 'stopped'];

export type Placed = {
  readonly kind: 'online' | 'offline' | AgentMark['kind'];
  /** Whether the item is a band (a stretch of time) or a mark (a moment). */
  readonly shape: 'band' | 'mark';
  readonly from: number;
  readonly to: number;
  /** Where it starts and how wide it is, as fractions of the window (0 … 1). */
  readonly x: number;
  readonly width: number;
  /** For a person, with its times: "Online 08:10 – 14:25 (6 h 15 min)". */
  readonly text: string;
};

/** A band's length as the timeline says it: "23 h 40 min", "5 min", "under a minute". */
const lasting = (ms: number): string => duration(ms / 1000, 'short');

const MARK_WORDS: Record<AgentMark['kind'], string> = {
  restarted: 'Restarted',
  updated: 'Updated',
  stopped: 'Stopped',
  offline: 'Went offline',
  online: 'Came online',
};

/** The window's bands and marks, clipped to the last `windowMs` before `now`, in time order. */
export function placeHistory(history: Agent['history'], now: number, windowMs = DAY_MS): Placed[] {
  const start = now - windowMs;
  const fraction = (at: number) => (Math.min(Math.max(at, start), now) - start) / windowMs;
  const bands = history.bands.flatMap((band): Placed[] => {
    const from = Math.max(band.from, start);
    const to = Math.min(band.to ?? now, now);
    if (to <= from) return [];
    const state = band.state === 'online' ? 'Online' : 'Offline';
    const until = band.to === null ? 'now' : clockTime(to, now);
    return [
      {
        kind: band.state,
        shape: 'band',
        from,
        to,
        x: fraction(from),
        width: fraction(to) - fraction(from),
        text: `${state} ${clockTime(from, now)} – ${until} (${lasting(to - from)})`,
      },
    ];
  });
  const marks = history.marks
    .filter((mark) => MARKED.includes(mark.kind) && mark.at >= start && mark.at <= now)
    .map((mark): Placed => ({
      kind: mark.kind,
      shape: 'mark',
      from: mark.at,
      to: mark.at,
      x: fraction(mark.at),
      width: 0,
      text: `${MARK_WORDS[mark.kind]} at ${clockTime(mark.at, now)}${mark.detail ? ` · ${mark.detail}` : ''}`,
    }));
  return [...bands, ...marks].sort((a, b) => a.from - b.from || (a.shape === 'band' ? -1 : 1));
}

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The picture in words: "online 23 h 40 min, offline 20 min, 2 restarts, 1 update". */
export function historySummary(placed: readonly Placed[]): string {
  const total = (kind: Placed['kind']) =>
    placed
      .filter((p) => p.kind === kind && p.shape === 'band')
      .reduce((ms, p) => ms + p.to - p.from, 0);
  const count = (kind: Placed['kind']) => placed.filter((p) => p.kind === kind).length;
  const [online, offline] = [total('online'), total('offline')];
  const parts = [
    online > 0 && `online ${lasting(online)}`,
    offline > 0 && `offline ${lasting(offline)}`,
    count('restarted') > 0 && counted(count('restarted'), 'restart', 'restarts'),
    count('updated') > 0 && counted(count('updated'), 'update', 'updates'),
    count('stopped') > 0 && counted(count('stopped'), 'stop', 'stops'),
  ].filter((part) => part !== false);
  return parts.length > 0 ? parts.join(', ') : 'nothing seen yet';
}
