import { expect, it } from 'vitest';
import { messageParts, wayOut } from '../../../renderer/src/resources/names/message-parts.ts';

it('finds the ids in a refusal, quotes and all, and leaves the words around them', () => {
  expect(messageParts('"bkdhr_Hello1" is still used by `bkdfo_Primary1`.')).toEqual([
    { id: 'bkdhr_Hello1' },
    { text: ' is still used by ' },
    { id: 'bkdfo_Primary1' },
    { text: '.' },
  ]);
});

it('leaves words that only look like ids as words', () => {
  expect(messageParts('min_version must be null')).toEqual([{ text: 'min_version must be null' }]);
});

it('offers the way out of a delete refused because something uses it, and of nothing else', () => {
  const message = '"bkdhr_Hello1" is still used by "edghts_App1"';
  expect(wayOut('ERR_SERVICE_306', message)).toEqual([
    { text: 'Remove it from ' },
    { id: 'edghts_App1' },
    { text: ' first.' },
  ]);
  expect(wayOut('ERR_SERVICE_216', message)).toBeUndefined();
});
