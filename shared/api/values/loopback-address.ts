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
