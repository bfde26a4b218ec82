import { isLoopbackHost } from '../../shared/api/values/loopback-address.ts';
import { UnsafeUrlError } from './errors.ts';

/**
 * The profile's base URL, checked: the API key goes only there, so it must be https, or http to
 * this machine (the embedded sandbox). No credentials in the URL, which would leak into logs.
 */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UnsafeUrlError(`"${baseUrl}" is not a valid URL for the API`);
  }
  if (url.username !== '' || url.password !== '')
    throw new UnsafeUrlError('The API URL must not contain a user name or password');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:')
    throw new UnsafeUrlError(
      `Refusing to send the API key over plain http to ${url.host}: use https (http is allowed only to this machine)`,
    );
  throw new UnsafeUrlError(`The API URL must be https, not ${url.protocol.replace(/:$/, '')}`);
}

/**
 * A URL the service handed back (a next page), resolved against the base and accepted only on
 * the base's own origin: a page that points elsewhere must not receive the API key.
 */
export function sameOriginUrl(base: URL, uri: string): URL {
  let url: URL;
  try {
    url = new URL(uri, base);
  } catch {
    throw new UnsafeUrlError(`The service returned an invalid next-page address: "${uri}"`);
  }
  if (url.origin !== base.origin || url.username !== '' || url.password !== '')
    throw new UnsafeUrlError(
      `The service returned a next-page address on another origin (${url.origin}, not ${base.origin}); it was not followed, so the API key stays with ${base.host}`,
    );
  return url;
}
