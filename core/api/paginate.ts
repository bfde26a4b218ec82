import { InvalidResponseError } from './errors.ts';

/** One page of a list, its items taken out of the resource-specific key. */
export type ListPage<T> = { readonly items: readonly T[]; readonly nextPageUri: string | null };

/** Called after each page of a full sync: items loaded so far, pages fetched so far. */
export type ProgressCallback = (loaded: number, pages: number) => void;

/**
 * The pages of a list, following `next_page_uri` until it is null: one request per page, so a
 * full sync of N items costs ceil(N / page size) requests. `fetchPage(undefined)` asks for the
 * first page; the fetcher is where each next-page address is checked before any request.
 */
export async function* pagesOf<T>(
  fetchPage: (nextPageUri: string | undefined) => Promise<ListPage<T>>,
  operation: string,
): AsyncGenerator<ListPage<T>, void, undefined> {
  const seen = new Set<string>();
  let page = await fetchPage(undefined);
  yield page;
  while (page.nextPageUri !== null) {
    // A service bug that loops would otherwise spend the whole rate budget forever.
    if (seen.has(page.nextPageUri))
      throw new InvalidResponseError(operation, `the next page loops back to ${page.nextPageUri}`);
    seen.add(page.nextPageUri);
    page = await fetchPage(page.nextPageUri);
    yield page;
  }
}

export async function* itemsOf<T>(pages: AsyncIterable<ListPage<T>>): AsyncGenerator<T> {
  for await (const page of pages) yield* page.items;
}

export async function collectAll<T>(
  pages: AsyncIterable<ListPage<T>>,
  onProgress?: ProgressCallback,
): Promise<T[]> {
  const all: T[] = [];
  let count = 0;
  for await (const page of pages) {
    all.push(...page.items);
    count += 1;
    onProgress?.(all.length, count);
  }
  return all;
}
