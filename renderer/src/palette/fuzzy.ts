/*
 * Fuzzy matching for the command palette: the query's characters in order anywhere in the text
 * (a subsequence), scored so that what a person meant comes first: a match at the start or at
 * the start of a word beats one inside a word, consecutive characters beat scattered ones, and a
 * shorter text beats a longer one with the same match. Both strings are expected lower-cased
 * already: the palette lowers its index once, not on every keystroke.
 */

const START = 12;
const WORD_START = 6;
const CONSECUTIVE = 8;
const CHARACTER = 1;
/** Per character skipped between two matched ones, up to GAP_CAP. */
const GAP = 0.5;
const GAP_CAP = 4;
/** Per character of text: of two equal matches the shorter text wins, by a little. */
const LENGTH = 0.01;

const SEPARATORS = new Set([' ', '-', '_', '.', '/', ':', '(', '[', ',', '·']);

function atWordStart(text: string, at: number): boolean {
  return at === 0 || SEPARATORS.has(text[at - 1] ?? ' ');
}

/**
 * How well `query` matches `text` (higher is better), or null when its characters do not all
 * appear in order. An empty query matches everything with 0.
 */
export function fuzzyScore(query: string, text: string): number | null {
  if (query === '') return 0;
  // Most texts do not match at all: one quick pass says so before any scoring.
  if (!inOrder(query, text)) return null;
  // A query found whole scores as a run of consecutive characters, best where a word starts.
  const whole = wholeAt(query, text);
  if (whole >= 0) return runScore(text, whole, query.length) - text.length * LENGTH;
  // Word starts first; when skipping ahead to them strands the query's end, the leftmost path.
  const score = walk(query, text, true) ?? walk(query, text, false);
  return score === null ? null : score - text.length * LENGTH;
}

function inOrder(query: string, text: string): boolean {
  let at = -1;
  for (let i = 0; i < query.length; i += 1) {
    at = text.indexOf(query.charAt(i), at + 1);
    if (at < 0) return false;
  }
  return true;
}

function walk(query: string, text: string, wordsFirst: boolean): number | null {
  let score = 0;
  let last = -1;
  for (let i = 0; i < query.length; i += 1) {
    const char = query.charAt(i);
    const at = wordsFirst ? nextMatch(text, char, last + 1) : text.indexOf(char, last + 1);
    if (at < 0) return null;
    score += CHARACTER;
    if (at === 0) score += START;
    else if (atWordStart(text, at)) score += WORD_START;
    if (at === last + 1 && last >= 0) score += CONSECUTIVE;
    else if (last >= 0) score -= Math.min(GAP_CAP, (at - last - 1) * GAP);
    last = at;
  }
  return score;
}

/** Where `query` stands whole in `text`, preferring the start of a word; -1 if nowhere. */
function wholeAt(query: string, text: string): number {
  const first = text.indexOf(query);
  for (let at = first; at >= 0; at = text.indexOf(query, at + 1))
    if (atWordStart(text, at)) return at;
  return first;
}

function runScore(text: string, at: number, length: number): number {
  const start = at === 0 ? START : atWordStart(text, at) ? WORD_START : 0;
  return start + length * CHARACTER + (length - 1) * CONSECUTIVE;
}

/** The next place of `char` from `from`, a word's start first when there is one before the end. */
function nextMatch(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  if (at < 0 || atWordStart(text, at)) return at;
  // "bb" in "big backup": the b that starts "backup" reads better than the one inside a word.
  for (let next = text.indexOf(char, at + 1); next >= 0; next = text.indexOf(char, next + 1))
    if (atWordStart(text, next)) return next;
  return at;
}
