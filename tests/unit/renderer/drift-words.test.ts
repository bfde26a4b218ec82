import { describe, expect, it } from 'vitest';
import {
  hourlyShare,
  keptWhen,
  putBackWords,
  requestCount,
} from '../../../renderer/src/screens/drift/words.ts';

describe("the Drift screen's words", () => {
  it.each([
    [5, 120, 60_000, 'at most 360 requests an hour'],
    [25, 100, 10_000, 'at most 9,000 requests an hour'],
    [1, 7, 60_000, 'at most 4 requests an hour'],
  ])(
    'says %i% of %i requests per %i ms as "%s", rounded down',
    (percent, capacity, windowMs, words) => {
      expect(hourlyShare(capacity, windowMs, percent)).toBe(words);
    },
  );

  it('says how a baseline was kept, and what a check cost', () => {
    expect(keptWhen('accept')).toBe(', when you accepted a change');
    expect(keptWhen(null)).toBe('');
    expect(requestCount(1)).toBe('1 request');
    expect(requestCount(12)).toBe('12 requests');
  });

  it('says what a Put back did, and the secrets it could not give back', () => {
    const did = {
      ok: true as const,
      created: 0,
      updated: 1,
      deleted: 2,
      unchanged: 9,
      resumed: false,
    };
    expect(putBackWords('Staging', did, 0)).toBe(
      'Put back: Staging is its baseline again (1 updated, 2 deleted).',
    );
    expect(putBackWords('Staging', { ...did, updated: 0, deleted: 0 }, 2)).toBe(
      'Put back: Staging is its baseline again. The 2 changed secrets stay as they are.',
    );
  });
});
