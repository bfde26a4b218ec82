import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../../../core/api/errors.ts';
import { collectAll, itemsOf, pagesOf, type ListPage } from '../../../../core/api/paginate.ts';

/** A list of `total` numbers served `size` at a time, recording each page asked for. */
function server(total: number, size: number) {
  const asked: (string | undefined)[] = [];
  const fetchPage = async (uri: string | undefined): Promise<ListPage<number>> => {
    asked.push(uri);
    const start = uri === undefined ? 0 : Number(new URL(uri).searchParams.get('from'));
    const items = Array.from({ length: Math.min(size, total - start) }, (_, i) => start + i);
    const next = start + size < total ? `https://api.example.com/x?from=${start + size}` : null;
    return { items, nextPageUri: next };
  };
  return { asked, fetchPage };
}

describe('pagination', () => {
  it('follows next_page_uri, one request per page, ceil(N / size) in all', async () => {
    const { asked, fetchPage } = server(250, 100);
    const progress: [number, number][] = [];
    const all = await collectAll(pagesOf(fetchPage, 'x.list'), (loaded, pages) =>
      progress.push([loaded, pages]),
    );
    expect(all).toHaveLength(250);
    expect(all[249]).toBe(249);
    expect(asked).toEqual([
      undefined,
      'https://api.example.com/x?from=100',
      'https://api.example.com/x?from=200',
    ]);
    expect(progress).toEqual([
      [100, 1],
      [200, 2],
      [250, 3],
    ]);
  });

  it('costs a single request for an empty list', async () => {
    const { asked, fetchPage } = server(0, 100);
    expect(await collectAll(pagesOf(fetchPage, 'x.list'))).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  it('iterates items lazily: stopping early asks for no more pages', async () => {
    const { asked, fetchPage } = server(1_000, 10);
    const seen: number[] = [];
    for await (const item of itemsOf(pagesOf(fetchPage, 'x.list'))) {
      seen.push(item);
      if (item === 14) break;
    }
    expect(seen).toHaveLength(15);
    expect(asked).toHaveLength(2);
  });

  it('stops a service that pages in circles instead of spending the budget forever', async () => {
    const loop = async (): Promise<ListPage<number>> => ({
      items: [1],
      nextPageUri: 'https://api.example.com/x?again',
    });
    await expect(collectAll(pagesOf(loop, 'x.list'))).rejects.toThrow(InvalidResponseError);
  });
});
