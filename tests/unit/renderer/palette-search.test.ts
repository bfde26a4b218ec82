import { describe, expect, it } from 'vitest';
import { fuzzyScore } from '../../../renderer/src/palette/fuzzy.ts';
import { RecentItems, RECENT_LIMIT } from '../../../renderer/src/palette/recent.ts';
import { findable, search } from '../../../renderer/src/palette/search.ts';

const labels = (query: string, texts: string[], recent: string[] = []) =>
  search(
    query,
    texts.map((label) => findable({ key: label, label })),
    recent,
    10,
  ).shown.map((e) => e.label);

describe('fuzzyScore', () => {
  it('matches the query as a subsequence, case already lowered, and nothing else', () => {
    expect(fuzzyScore('bbx', 'build-box')).not.toBeNull();
    expect(fuzzyScore('xbb', 'build-box')).toBeNull();
    expect(fuzzyScore('boxx', 'build-box')).toBeNull();
    expect(fuzzyScore('', 'anything')).toBe(0);
  });

  it('finds a match that starts inside a word when word starts would strand the query', () => {
    // The "a" of "a c" starts a word but leaves no "c" after it; the one in "xac" does not.
    expect(fuzzyScore('ac', 'xacb a')).not.toBeNull();
  });

  it('ranks the start of the text over a word start over the middle of a word', () => {
    const start = fuzzyScore('box', 'box office') ?? -Infinity;
    const word = fuzzyScore('box', 'build box') ?? -Infinity;
    const inside = fuzzyScore('box', 'inboxes') ?? -Infinity;
    expect(start).toBeGreaterThan(word);
    expect(word).toBeGreaterThan(inside);
  });

  it('ranks consecutive characters over scattered ones, and a shorter text among equals', () => {
    expect(fuzzyScore('off', 'office') ?? -Infinity).toBeGreaterThan(
      fuzzyScore('off', 'old fast fox') ?? -Infinity,
    );
    expect(fuzzyScore('office', 'office') ?? -Infinity).toBeGreaterThan(
      fuzzyScore('office', 'office network') ?? -Infinity,
    );
  });
});

describe('search', () => {
  it('orders matches best first and drops what does not match', () => {
    expect(labels('edg', ['Backends', 'Edges', 'Shared gateway', 'Stop edge-box'])).toEqual([
      'Edges',
      'Stop edge-box',
      'Shared gateway',
    ]);
  });

  it('puts recent items first: alone with no query, ahead of an equal match with one', () => {
    const texts = ['Sessions', 'Edges', 'Settings', 'SSH'];
    expect(labels('', texts, ['SSH', 'Settings'])).toEqual([
      'SSH',
      'Settings',
      'Sessions',
      'Edges',
    ]);
    expect(labels('s', ['Sessions', 'Settings'], ['Settings'])).toEqual(['Settings', 'Sessions']);
  });

  it('matches an id, after a name matching as well, and counts every match beyond those shown', () => {
    const entries = [
      findable({ key: 'a', label: 'office', id: 'ipp_2abc' }),
      findable({ key: 'b', label: 'ipp lab', id: 'ipp_1xyz' }),
    ];
    expect(search('ipp_2', entries, [], 10).shown.map((e) => e.key)).toEqual(['a']);
    expect(search('ipp', entries, [], 10).shown.map((e) => e.key)).toEqual(['b', 'a']);
    const many = Array.from({ length: 120 }, (_, i) =>
      findable({ key: `${i}`, label: `box ${i}` }),
    );
    expect(search('box', many, [], 50)).toMatchObject({ total: 120 });
    expect(search('box', many, [], 50).shown).toHaveLength(50);
  });
});

describe('RecentItems', () => {
  const memory = () => {
    const kept = new Map<string, string>();
    return {
      getItem: (key: string) => kept.get(key) ?? null,
      setItem: (key: string, value: string) => void kept.set(key, value),
    };
  };

  it('keeps the latest few, most recent first, each once', () => {
    const recent = new RecentItems(memory());
    for (let i = 0; i < RECENT_LIMIT + 3; i += 1) recent.remember(`k${i}`);
    recent.remember('k5');
    const keys = recent.keys();
    expect(keys).toHaveLength(RECENT_LIMIT);
    expect(keys[0]).toBe('k5');
    expect(keys.filter((k) => k === 'k5')).toHaveLength(1);
  });

  it('starts over from a damaged or missing store rather than failing', () => {
    const store = memory();
    store.setItem('burrow.palette.recent', '{not json');
    expect(new RecentItems(store).keys()).toEqual([]);
    expect(new RecentItems(undefined).keys()).toEqual([]);
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(() => new RecentItems(full).remember('k')).not.toThrow();
  });
});
