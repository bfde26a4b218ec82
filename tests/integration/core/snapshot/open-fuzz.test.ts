import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../core/errors.ts';
import { openSnapshot } from '../../../../core/snapshot/open/open.ts';
import { planSnapshot } from '../../../../core/snapshot/plan/plan.ts';
import type { SnapshotDocument } from '../../../../shared/app/snapshot-document.ts';
import { fuzzCount } from '../../../support/fuzz-size.ts';
import { snapshotDocument } from '../../../support/snapshot-documents.ts';

/*
 * Hostile snapshot files through what the window's `snapshots.open` and `burrow plan` do with
 * them before any call: each is a snapshot that plans, or one clear line naming what is wrong.
 */

type Json = Record<string, unknown>;

/** Mulberry32: the same seed, the same documents. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function base(): Json {
  const resources: Json = {};
  resources['ipPolicy'] = [{ name: 'ipPolicy/office', id: 'ipp_1', fields: { description: 'o' } }];
  resources['httpResponseBackend'] = [
    { name: 'httpResponseBackend/down', id: 'bkdhr_1', fields: { body: 'x', status_code: 503 } },
  ];
  resources['failoverBackend'] = [
    { name: 'failoverBackend/a', id: 'bkdfo_1', fields: { backends: ['failoverBackend/b'] } },
    {
      name: 'failoverBackend/b',
      id: 'bkdfo_2',
      fields: { backends: ['httpResponseBackend/down'] },
    },
  ];
  resources['httpsEdge'] = [{ name: 'httpsEdge/www', id: 'edghts_1', fields: {} }];
  resources['httpsEdgeRoute'] = [
    {
      name: 'httpsEdgeRoute/www/root',
      id: 'edghtsrt_1',
      edge: 'httpsEdge/www',
      fields: {
        match: '/',
        match_type: 'path_prefix',
        backend: { backend_id: 'failoverBackend/a' },
      },
    },
  ];
  return snapshotDocument(resources as Partial<SnapshotDocument['resources']>);
}

/** Stands for a value nested 50,000 deep, put into the text after it is written. */
const DEEP = '\u0000deep';
const deepText = `${'[{"a":'.repeat(25_000)}1${'}]'.repeat(25_000)}`;

type Spot = { holder: Json | unknown[]; key: string | number };

/** The members of `value` down to depth 8 (not into a huge one put there), to replace one. */
function holders(value: unknown, depth = 0, out: Spot[] = []): Spot[] {
  if (depth > 8 || value === null || typeof value !== 'object') return out;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.slice(0, 10).map((item, i) => [i, item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    out.push({ holder: value as Json, key });
    holders(item, depth + 1, out);
  }
  return out;
}

/** One hostile document as text: a few random mutations of a good one. */
function hostile(next: () => number): string {
  const document = base();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const replacements = [
    () => 42,
    () => -1e308,
    () => null,
    () => true,
    () => '',
    () => [],
    () => ({}),
    () => 'x'.repeat(200_000),
    () => DEEP,
    () => Array.from({ length: 5_000 }, (_, i) => `ipPolicy/p${i}`),
    () => 'ipPolicy/nowhere',
    () => 'failoverBackend/a',
    () => 'httpsEdge/\u0000\u001b[31mred\r\nline',
    () => ({ __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } }),
  ];
  let text: string | undefined;
  for (let i = 0, n = 1 + Math.floor(next() * 3); i < n; i++) {
    const spots = holders(document);
    const { holder, key } = pick(spots);
    const choice = next();
    if (choice < 0.6) (holder as Json)[key] = pick(replacements)();
    else if (choice < 0.75 && !Array.isArray(holder)) holder[`unknown${i}`] = 1;
    else if (choice < 0.9 && !Array.isArray(holder)) delete holder[key as string];
    else text = JSON.stringify(document).replace('"format"', '"__proto__":{"polluted":1},"format"');
  }
  return (text ?? JSON.stringify(document)).replaceAll(JSON.stringify(DEEP), deepText);
}

const EMPTY = openSnapshot('empty.json', JSON.stringify(snapshotDocument()));

/** 250 in `npm test`, the first of the full run's 1,000 (BURROW_FUZZ=full; tests/support/fuzz-size.ts). */
const HOSTILE = fuzzCount(1_000, 250);

describe('hostile snapshot files', () => {
  it(`${HOSTILE} of them: each opens and plans, or is refused in one line naming the file`, () => {
    const next = random(20241112);
    let refused = 0;
    for (let i = 0; i < HOSTILE; i++) {
      const text = hostile(next);
      let document: SnapshotDocument | undefined;
      try {
        document = openSnapshot(`case-${i}.json`, text);
      } catch (error) {
        expect(error, text.slice(0, 300)).toBeInstanceOf(AppError);
        const message = (error as Error).message;
        expect(message).toMatch(new RegExp(`^case-${i}\\.json(:| is not JSON)`));
        expect(message).not.toMatch(/[\n\r]|\s+at \S+ \(/);
        refused++;
      }
      if (document !== undefined) planSnapshot(document, EMPTY, { prune: true });
      expect(({} as Json)['polluted']).toBeUndefined();
    }
    // Most are refused; some mutations leave a snapshot that plans.
    expect(refused).toBeGreaterThan(HOSTILE / 2);
    // CPU-bound: a few seconds alone, many more on a loaded two-core machine.
  }, 120_000);

  it('opens one that starts with a byte-order mark', () => {
    const document = openSnapshot('bom.json', `\uFEFF${JSON.stringify(base())}`);
    expect(document.resources.httpsEdgeRoute).toHaveLength(1);
  });

  it('opens 90,000 edges and 90,000 routes (each route finds its edge by name, once)', () => {
    const resources = base()['resources'] as Json;
    resources['httpsEdge'] = Array.from({ length: 90_000 }, (_, i) => ({
      name: `httpsEdge/e${i}`,
      id: `edghts_${i}`,
      fields: {},
    }));
    resources['httpsEdgeRoute'] = Array.from({ length: 90_000 }, (_, i) => ({
      name: `httpsEdgeRoute/e${i}/r`,
      id: `edghtsrt_${i}`,
      edge: `httpsEdge/e${89_999 - i}`,
      fields: { match: '/' },
    }));
    const document = openSnapshot('big.json', JSON.stringify({ ...base(), resources }));
    expect(document.resources.httpsEdgeRoute).toHaveLength(90_000);
  }, 120_000);
});
