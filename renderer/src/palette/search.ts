import { fuzzyScore } from './fuzzy.ts';

/** One thing the palette can find: what it shows, and what it is matched against. */
export type Findable = {
  /** Stable across sessions: what the recent items remember. */
  readonly key: string;
  /** A name, never an id. */
  readonly label: string;
  /** An id that matches too, shown muted beside the label. */
  readonly id?: string | undefined;
  /** `label` and `id` lower-cased once, when the index is built. */
  readonly lower: string;
  readonly lowerId?: string | undefined;
};

/** A match on the id counts, but a name matching as well comes first. */
const ID_PENALTY = 4;
/** Recent items first among equals, the most recent before the others. */
const RECENT_BOOST = 6;

/** Lower-cased copies of what an entry is matched against: made once per entry. */
export function findable<E extends { label: string; id?: string | undefined }>(
  entry: E,
): E & Pick<Findable, 'lower' | 'lowerId'> {
  return { ...entry, lower: entry.label.toLowerCase(), lowerId: entry.id?.toLowerCase() };
}

/** The entries shown, and how many matched in all. */
export type Found<E> = { readonly shown: E[]; readonly total: number };

/**
 * The best `limit` entries for `query`: with no query, the recent ones (most recent first) then
 * the others in the index's order; with one, those matching by label or id, best first, a recent
 * one ahead of an equal match.
 */
export function search<E extends Findable>(
  query: string,
  entries: readonly E[],
  recent: readonly string[],
  limit: number,
): Found<E> {
  const rank = new Map(recent.map((key, i) => [key, recent.length - i]));
  const wanted = query.trim().toLowerCase();
  if (wanted === '') {
    const first = recent.flatMap((key) => entries.filter((e) => e.key === key).slice(0, 1));
    const rest = entries.filter((e) => !rank.has(e.key));
    return { shown: [...first, ...rest].slice(0, limit), total: entries.length };
  }
  const scored: { entry: E; score: number }[] = [];
  for (const entry of entries) {
    const byLabel = fuzzyScore(wanted, entry.lower);
    const byId = entry.lowerId === undefined ? null : fuzzyScore(wanted, entry.lowerId);
    const best = Math.max(byLabel ?? -Infinity, byId === null ? -Infinity : byId - ID_PENALTY);
    if (best === -Infinity) continue;
    const recency = rank.get(entry.key);
    scored.push({
      entry,
      score: best + (recency === undefined ? 0 : RECENT_BOOST + recency / recent.length),
    });
  }
  // Stable: equal scores keep the index's order (screens, then agents, then resources).
  scored.sort((a, b) => b.score - a.score);
  return { shown: scored.slice(0, limit).map((s) => s.entry), total: scored.length };
}
