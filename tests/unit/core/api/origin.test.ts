import { describe, expect, it } from 'vitest';
import { UnsafeUrlError } from '../../../../core/api/errors.ts';
import { checkBaseUrl, sameOriginUrl } from '../../../../core/api/origin.ts';

describe('checkBaseUrl', () => {
  it.each([
    'https://api.example.com',
    'https://api.example.com:8443/prefix',
    'http://127.0.0.1:4040',
    'http://127.8.9.10',
    'http://localhost:3000',
    'http://[::1]:3000',
    'http://127.1:3000',
  ])('accepts %s', (url) => {
    expect(checkBaseUrl(url).href).toContain(new URL(url).host);
  });

  it.each([
    ['http://api.example.com', /plain http to api\.example\.com/],
    ['http://10.0.0.1', /plain http/],
    ['http://127.0.0.1.evil.com', /plain http/],
    // Resolved through DNS like any other name, so it could be anywhere.
    ['http://api.localhost:4040', /plain http to api\.localhost:4040/],
    ['http://localhost.:4040', /plain http/],
    ['http://[::2]', /plain http/],
    ['ftp://api.example.com', /must be https/],
    ['https://user:secret@api.example.com', /user name or password/],
    ['not a url', /not a valid URL/],
  ])('refuses %s', (url, message) => {
    expect(() => checkBaseUrl(url)).toThrow(UnsafeUrlError);
    expect(() => checkBaseUrl(url)).toThrow(message);
  });
});

describe('sameOriginUrl', () => {
  const base = new URL('https://api.example.com');

  it('follows addresses on the base origin, absolute or relative', () => {
    expect(sameOriginUrl(base, 'https://api.example.com/ip_policies?before_id=ipp_1').href).toBe(
      'https://api.example.com/ip_policies?before_id=ipp_1',
    );
    expect(sameOriginUrl(base, '/ip_policies?limit=5').href).toBe(
      'https://api.example.com/ip_policies?limit=5',
    );
    expect(sameOriginUrl(base, 'https://api.example.com:443/x').origin).toBe(base.origin);
  });

  it.each([
    'https://evil.example.com/ip_policies',
    'http://api.example.com/ip_policies',
    'https://api.example.com:8443/ip_policies',
    '//evil.example.com/ip_policies',
    'https://user@api.example.com/ip_policies',
  ])('refuses %s', (uri) => {
    expect(() => sameOriginUrl(base, uri)).toThrow(UnsafeUrlError);
  });
});
