import { describe, expect, it } from 'vitest';
import { baseUrlResolver } from '../../../sandbox/http/base-url.ts';

describe('base URL', () => {
  const resolve = baseUrlResolver('127.0.0.1', 4040);

  it('takes a loopback Host with the server port', () => {
    expect(resolve('127.0.0.1:4040')).toBe('http://127.0.0.1:4040');
    expect(resolve('LOCALHOST:4040')).toBe('http://localhost:4040');
    expect(resolve('[::1]:4040')).toBe('http://[::1]:4040');
    expect(resolve('127.9.9.9:4040')).toBe('http://127.9.9.9:4040');
  });

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
