/**
 * `items` in the order they had when it was held (`held`: their keys then), so that a re-sort
 * does not move a row under the pointer about to click it. What is still there keeps its place,
 * with its new data; what came since follows, in its own order; what went is gone.
 */
export function inHeldOrder<T>(
  items: readonly T[],
  held: readonly string[],
  key: (item: T) => string,
): readonly T[] {
  const place = new Map(held.map((k, i) => [k, i]));
  const kept: [number, T][] = [];
  const added: T[] = [];
  for (const item of items) {
    const at = place.get(key(item));
    if (at === undefined) added.push(item);
    else kept.push([at, item]);
  }
  kept.sort((a, b) => a[0] - b[0]);
  return [...kept.map(([, item]) => item), ...added];
}
