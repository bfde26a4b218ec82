import type { Item } from '../kinds/kind-shape.ts';
import { shortId } from './references.svelte.ts';

/**
 * What a person calls a resource in a sentence (a toast, a dialog's title): a route by its path,
 * anything else by its description (after its kind, when given), or its kind and a short id when
 * it has none. The full id stays where it is useful: the resource's page and its Copy button.
 */
export function nameOf(
  item: Pick<Item, 'id' | 'description'> & { readonly match?: unknown },
  singular?: string,
): string {
  if (typeof item['match'] === 'string') return `route ${item['match']}`;
  const kind = singular ? `${singular} ` : '';
  return item.description ? `${kind}'${item.description}'` : `${kind}${shortId(item.id)}`;
}
