/**
 * The one loopback rule: plain http is allowed to 127.0.0.0/8, ::1 and `localhost` only. Names
 * under `.localhost` are refused, because Node resolves them through DNS like any other name.
 * Takes a URL's `hostname` (IPv6 in brackets, as WHATWG URL gives it).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  const octets = host.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((o) => /^(0|[1-9][0-9]{0,2})$/.test(o) && Number(o) <= 255)
  );
}

/** The largest call browser mode's loopback server reads: one call's JSON, arguments and all. */
export const MAX_HTTP_CALL_BYTES = 1 << 20;

/**
 * The header in which a browser-mode tab sends its page secret, on every call and on its event
 * stream: the session's credential, which only the page holds (a cookie would reach every port).
 */
export const PAGE_SECRET_HEADER = 'burrow-page-secret';
