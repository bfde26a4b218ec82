import { z } from 'zod';

const DNS_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const PORT = /^[1-9][0-9]{0,4}$/;
const ipv4 = z.ipv4();
const ipv6 = z.ipv6();

/** A DNS name such as `example.com` or `localhost`: dot-separated labels, no trailing dot. */
export function isDomainName(s: string): boolean {
  return s.length <= 253 && s.split('.').every((label) => DNS_LABEL.test(label));
}

/** A domain that may start with the wildcard label: `*.example.com`. */
export function isWildcardDomainName(s: string): boolean {
  return isDomainName(s.startsWith('*.') ? s.slice(2) : s);
}

export type ParsedHostport = { readonly host: string; readonly port: number };

/**
 * `<host>:<port>` with a domain name, an IPv4 address or a bracketed IPv6 address, and a port
 * from 1 to 65535. The host is lower-cased, as host names compare without case.
 */
export function parseHostport(s: string): ParsedHostport | undefined {
  const colon = s.lastIndexOf(':');
  const host = s.slice(0, colon);
  const port = s.slice(colon + 1);
  if (colon < 0 || !PORT.test(port) || Number(port) > 65535) return undefined;
  const bracketed = host.startsWith('[') && host.endsWith(']');
  const valid = bracketed
    ? ipv6.safeParse(host.slice(1, -1)).success
    : isDomainName(host) || ipv4.safeParse(host).success;
  return valid ? { host: host.toLowerCase(), port: Number(port) } : undefined;
}

export const DomainName = z
  .string()
  .refine(isDomainName, 'must be a domain name such as "example.com"');
export const Hostport = z
  .string()
  .refine(
    (s) => parseHostport(s) !== undefined,
    'must be "<host>:<port>" with a port from 1 to 65535',
  );
