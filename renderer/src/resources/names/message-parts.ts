import { idKindOf } from '../../../../shared/api/values/ids.ts';

/** A message in pieces: its words, and the ids in it (to be shown as what they name). */
export type Part = { readonly text: string } | { readonly id: string };

// An id as messages write them: bare, or in the quotes or backticks around it (which go with it).
const ID = /(["'`]?)\b([a-z]+_[A-Za-z0-9]+)\b\1/g;

/** `"bkdhr_1" is still used by "bkdfo_2"` as [id, text, id]; words that only look like ids stay. */
export function messageParts(message: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  for (const match of message.matchAll(ID)) {
    const id = match[2] ?? '';
    if (!idKindOf(id)) continue;
    if (match.index > at) parts.push({ text: message.slice(at, match.index) });
    parts.push({ id });
    at = match.index + match[0].length;
  }
  if (at < message.length) parts.push({ text: message.slice(at) });
  return parts;
}

/**
 * What to do about a refusal, when the API's words say it: a delete refused because something
 * still uses the resource ("… is still used by <id>") is undone by removing it from that first.
 */
export function wayOut(code: string, message: string): Part[] | undefined {
  if (!code.endsWith('_306')) return undefined;
  const user = messageParts(message).filter((p) => 'id' in p)[1];
  return user && [{ text: 'Remove it from ' }, user, { text: ' first.' }];
}
