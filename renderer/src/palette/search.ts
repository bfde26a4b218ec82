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
  // An id has no spaces: a query with one is a name's.
  const idLike = !/\s/.test(wanted);
  // The best `limit` so far, best first; equal scores keep the index's order (screens, agents,
  // then resources). Kept sorted as they come: no sort of 10,000 matches for 50 of them.
  const best: { entry: E; score: number }[] = [];
  let total = 0;
  for (const entry of entries) {
    const byLabel = fuzzyScore(wanted, entry.lower);
    const byId = entry.lowerId === undefined || !idLike ? null : fuzzyScore(wanted, entry.lowerId);
    const found = Math.max(byLabel ?? -Infinity, byId === null ? -Infinity : byId - ID_PENALTY);
    if (found === -Infinity) continue;
    total += 1;
    const recency = rank.get(entry.key);
    const score = found + (recency === undefined ? 0 : RECENT_BOOST + recency / recent.length);
    if (best.length === limit && score <= (best[limit - 1]?.score ?? -Infinity)) continue;
    let at = best.length;
    while (at > 0 && (best[at - 1]?.score ?? Infinity) < score) at -= 1;
    best.splice(at, 0, { entry, score });
    if (best.length > limit) best.pop();
  }
  return { shown: best.map((b) => b.entry), total };
}
