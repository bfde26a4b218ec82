import { isIP } from 'node:net';
import { isLoopbackHost } from '../../shared/api/values/loopback-address.ts';

export function hostForUrl(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * The base URL that `uri` and `next_page_uri` are built from. The Host header is taken only when
 * it names this server on a loopback name (or the bound address) with its own port; any other
 * Host would let a request write an arbitrary origin into URLs, so the listening address is used.
 */
export function baseUrlResolver(listenHost: string, port: number) {
  const fallback = `http://${hostForUrl(listenHost)}:${port}`;
  const bound = hostForUrl(listenHost).toLowerCase();
  const allowed = new Map<string, string>();
  return (hostHeader: string | undefined): string => {
    if (!hostHeader) return fallback;
    const cached = allowed.get(hostHeader);
    if (cached) return cached;
    const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(hostHeader);
    if (!match || Number(match[2]) !== port) return fallback;
    const host = (match[1] ?? '').toLowerCase();
    if (!isLoopbackHost(host) && host !== bound) return fallback;
    const url = `http://${host}:${port}`;
    // Few distinct loopback spellings exist; the map stays tiny.
    if (allowed.size < 64) allowed.set(hostHeader, url);
    return url;
  };
}
