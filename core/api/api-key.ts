import { InvalidApiKeyError } from './errors.ts';

/** Printable ASCII: what a key may hold to travel as is in an Authorization header. */
const OUTSIDE_KEY = /[^\x21-\x7e]/;

function describe(char: string): string {
  if (char === '\n' || char === '\r') return 'a line break';
  if (/\s/.test(char)) return 'a space';
  if (/[\p{Cc}\p{Cf}]/u.test(char)) return 'a control character';
  return 'a character that is not plain ASCII';
}

/**
 * Refuses, once when the client is made, a key that could not be sent: a pasted key often brings
 * a line break along, and undici would refuse the header of every request with an error that
 * reads like a network failure. The message says what is wrong and where, never the key.
 */
export function checkApiKey(key: string): string {
  if (key === '') throw new InvalidApiKeyError('The API key is empty');
  const at = key.search(OUTSIDE_KEY);
  if (at < 0) return key;
  const where =
    key.slice(at + 1).trim() === '' ? 'at its end' : at === 0 ? 'at its start' : 'inside it';
  throw new InvalidApiKeyError(
    `The API key has ${describe(key.charAt(at))} ${where}; copy it again without it`,
  );
}
