import type { AgentBand, AgentMark } from '../../shared/app/agents.ts';

/** What the timeline covers. */
export const HISTORY_MS = 24 * 60 * 60 * 1000;
/** A flapping agent's day stays this small: the oldest marks and bands go first. */
export const MAX_MARKS = 200;
export const MAX_BANDS = 200;

export type History = { bands: AgentBand[]; marks: AgentMark[] };

/** A day that starts now, in `state`. */
export function startHistory(state: AgentBand['state'], at: number): History {
  return { bands: [{ state, from: at, to: null }], marks: [] };
}

/**
 * The agent is now connected (`online`) or not: the open band ends and a new one starts, unless
 * it is already in that state (bands of one state are never side by side).
 */
export function band(history: History, state: AgentBand['state'], at: number): History {
  const open = history.bands.at(-1);
  if (open?.state === state && open.to === null) return history;
  const closed = history.bands.map((b) => (b.to === null ? { ...b, to: Math.max(b.from, at) } : b));
  return trim({ ...history, bands: [...closed, { state, from: at, to: null }] }, at);
}

export function mark(
  history: History,
  kind: AgentMark['kind'],
  at: number,
  detail: string | null = null,
): History {
  return trim({ ...history, marks: [...history.marks, { kind, at, detail }] }, at);
}

/** Only the last day, and at most so many bands and marks. */
export function trim(history: History, now: number): History {
  const since = now - HISTORY_MS;
  const bands = history.bands
    .filter((b) => b.to === null || b.to > since)
    .slice(-MAX_BANDS)
    .map((b) => (b.from < since ? { ...b, from: since } : b));
  const marks = history.marks.filter((m) => m.at > since).slice(-MAX_MARKS);
  return { bands, marks };
}
