import { describe, expect, it } from 'vitest';
import { baseUrlResolver } from '../../../sandbox/http/base-url.ts';

describe('base URL', () => {
  const resolve = baseUrlResolver('127.0.0.1', 4040);

  it.each(['127.0.0.1:4040', 'LOCALHOST:4040', '[::1]:4040', '127.9.9.9:4040'])(
    'takes the loopback Host %s with the server port',
    (host) => {
      expect(resolve(host)).toBe(`http://${host.toLowerCase()}`);
    },
  );

  it('never reflects any other Host', () => {
    for (const host of [
      undefined,
      '',
      'evil.com:4040',
      'localhost',
      'localhost:80',
      'a@localhost:4040',
      'localhost:4040/x',
      'api.localhost:4040',
    ])
      expect(resolve(host)).toBe('http://127.0.0.1:4040');
  });
});
