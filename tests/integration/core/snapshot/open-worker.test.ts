/**
 * Opening a large snapshot in a worker thread: the same document and the same refusals as
 * opening it in place, and the main loop kept turning meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { openSnapshotOffThread } from '../../../../core/snapshot/open/open-worker.ts';
import { openSnapshot } from '../../../../core/snapshot/open/open.ts';
import type { SnapshotDocument } from '../../../../shared/app/snapshot-document.ts';
import { snapshotDocument } from '../../../support/snapshot-documents.ts';

type Json = Record<string, unknown>;

function document(resources: Json = {}): Json {
  return snapshotDocument(resources as Partial<SnapshotDocument['resources']>, {
    source: { apiUrl: 'https://api.example.com', profileName: 'Prod' },
  });
}

/** 90,000 HTTPS edges and 90,000 routes, each route on another edge: about 12 MB. */
function large(): string {
  return JSON.stringify(
    document({
      httpsEdge: Array.from({ length: 90_000 }, (_, i) => ({
        name: `httpsEdge/e${i}`,
        id: `edghts_${i}`,
        fields: { description: `edge ${i}`, hostports: [`e${i}.example.com:443`] },
      })),
      httpsEdgeRoute: Array.from({ length: 90_000 }, (_, i) => ({
        name: `httpsEdgeRoute/e${i}/r`,
        id: `edghtsrt_${i}`,
        edge: `httpsEdge/e${89_999 - i}`,
        fields: { match: '/', match_type: 'path_prefix' },
      })),
    }),
  );
}

/** What opening threw, as the window and burrow see it. */
async function refusal(open: () => unknown): Promise<unknown> {
  try {
    await open();
  } catch (error) {
    const { name, message, code, field } = error as Error & { code: string; field?: string };
    return { name, message, code, field };
  }
  throw new Error('it opened');
}

describe('opening a snapshot off the main thread', () => {
  it('opens 90,000 edges and routes to the same document while the main loop keeps turning', async () => {
    const text = large();
    // Counts the main loop's turns while the worker parses; in place, the parse holds the loop
    // and none would come before it ends. A slower machine only makes more of them.
    let turns = 0;
    const probe = setInterval(() => (turns += 1), 1);
    const opened = await openSnapshotOffThread('big.json', text);
    clearInterval(probe);
    expect(opened).toEqual(openSnapshot('big.json', text));
    expect(opened.resources.httpsEdgeRoute).toHaveLength(90_000);
    expect(turns).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('refuses a file with the same one-line error as opening it in place', async () => {
    const route = { name: 'httpsEdgeRoute/x/r', id: 'edghtsrt_1', edge: 'httpsEdge/x', fields: {} };
    const texts = [
      '{"format": "burrow-snapshot",',
      `${'['.repeat(100)}${']'.repeat(100)}`,
      JSON.stringify({ ...document(), version: 2 }),
      JSON.stringify(document({ httpsEdgeRoute: [route] })),
      '\uFEFF{"format":"burrow-snapshot","\u001b[31m":1}',
    ];
    for (const text of texts) {
      const inPlace = await refusal(() => openSnapshot('bad.json', text));
      expect(await refusal(() => openSnapshotOffThread('bad.json', text, 0))).toEqual(inPlace);
    }
  }, 60_000);

  it('opens a small file in place, a large one in a thread, to the same document', async () => {
    const text = JSON.stringify(document());
    expect(await openSnapshotOffThread('small.json', text)).toEqual(openSnapshot('s', text));
    expect(await openSnapshotOffThread('small.json', text, 0)).toEqual(openSnapshot('s', text));
  }, 30_000);
});
