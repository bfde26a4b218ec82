import { describe, expect, it } from 'vitest';
import { checkApiKey } from '../../../../core/api/api-key.ts';
import { InvalidApiKeyError } from '../../../../core/api/errors.ts';

const KEY = '2hQbE3xYs_7JqLmN0pRt';

describe('checkApiKey', () => {
  it('takes a key of printable ASCII as it is', () => {
    expect(checkApiKey(KEY)).toBe(KEY);
  });

  it.each([
    ['', /^The API key is empty$/],
    [`${KEY}\n`, /a line break at its end/],
    [`${KEY}\r\n`, /a line break at its end/],
    [` ${KEY}`, /a space at its start/],
    [`${KEY.slice(0, 5)} ${KEY.slice(5)}`, /a space inside it/],
    [`${KEY}\u00a0`, /a space at its end/],
    [`${KEY.slice(0, 5)}\u0007${KEY.slice(5)}`, /a control character inside it/],
    [`${KEY}\u200b`, /a control character at its end/],
    [`${KEY}é`, /a character that is not plain ASCII at its end/],
  ])('refuses %j, naming the problem but never the key', (key, message) => {
    let error: unknown;
    try {
      checkApiKey(key);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidApiKeyError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(KEY.slice(0, 5));
  });
});
