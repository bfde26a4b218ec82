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

/**
 * A host that can only be this machine: `localhost`, 127.0.0.0/8 or ::1, in any spelling the URL
 * parser reads as one of them (`127.1`, `[0:0:0:0:0:0:0:1]`). Other names under `.localhost` are
 * not: Node resolves them through DNS, where a search domain can send them anywhere. Plain http
 * (the client) and a bind without warning (the sandbox) are allowed only here.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // Only a bare host: a port, a user or a path would be parsed away and let anything through.
  if (!/^[A-Za-z0-9.:-]+$/.test(bare)) return false;
  const literal = bare.includes(':') ? `[${bare}]` : bare;
  if (!URL.canParse(`http://${literal}/`)) return false;
  const { hostname } = new URL(`http://${literal}/`);
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
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
