import { expect, it } from 'vitest';
import { midSentence } from '../../../renderer/src/lib/words.ts';

it('keeps an abbreviation’s capitals inside a sentence', () => {
  expect(midSentence('SSH credentials')).toBe('SSH credentials');
  expect(midSentence('HTTP response backends')).toBe('HTTP response backends');
  expect(midSentence('IP policies')).toBe('IP policies');
  expect(midSentence('API key')).toBe('API key');
});

it('lower-cases a label’s first word otherwise, and only that letter', () => {
  expect(midSentence('Tunnel credentials')).toBe('tunnel credentials');
  expect(midSentence('Client secret')).toBe('client secret');
  expect(midSentence('Failover backends of IP')).toBe('failover backends of IP');
  expect(midSentence('')).toBe('');
});
