import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../../../../shared/api/values/loopback-address.ts';

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.8.9.10', '::1', '[::1]'])(
    '%s is this machine',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each([
    'api.localhost',
    'localhost.',
    'localhost.example.com',
    '127.0.0.1.evil.com',
    '128.0.0.1',
    '127.0.0.256',
    '127.1',
    '0.0.0.0',
    '10.0.0.1',
    '::',
    '::2',
    '::ffff:127.0.0.1',
    'example.com',
    'localhost:80',
    'a@localhost',
    'localhost/x',
    '',
  ])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
