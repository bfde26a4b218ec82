/*
 * CIDR blocks, IPv4 and IPv6, read without Node (this model runs in the window too): what is
 * well formed. The sandbox carries no traffic, so no address is ever matched against a block.
 */

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

/** A dotted-quad IPv4 address: four decimal octets 0–255, no leading zeros (they read as octal elsewhere). */
function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!DECIMAL.test(part) || part.length > 3 || Number(part) > 255) return undefined;
    bytes.push(Number(part));
  }
  return bytes;
}

/**
 * An IPv6 address in any of RFC 4291's text forms: eight groups of 1–4 hex digits, one `::` for a
 * run of zero groups, and optionally a dotted-quad IPv4 tail in place of the last two groups. No
 * zone (`%eth0`) and no brackets.
 */
export function parseIPv6(s: string): number[] | undefined {
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string): number[] | undefined => {
    if (part === '') return [];
    const words: number[] = [];
    const pieces = part.split(':');
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (!v4) return undefined;
        words.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else if (HEX_GROUP.test(piece)) words.push(parseInt(piece, 16));
      else return undefined;
    }
    return words;
  };
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  // An IPv4 tail belongs at the very end only.
  if (halves.length === 2 && (halves[0] ?? '').includes('.')) return undefined;
  const known = head.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return undefined;
  const words = [...head, ...Array<number>(8 - known).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/**
 * What is wrong with `s` as a CIDR block (`address/prefix`, IPv4 or IPv6), as the end of a
 * sentence naming the field; undefined when nothing is.
 *
 * The spec says only "IPv4 or IPv6 in CIDR notation". Nothing there refuses an address with bits
 * set past the prefix (`192.0.2.7/24`), so such a block is accepted and kept as written. A bare
 * address without a prefix is not CIDR notation and is refused, as are IPv4 octets with leading
 * zeros, zones and brackets.
 */
export function cidrProblem(s: string): string | undefined {
  const slash = s.indexOf('/');
  const example = 'such as "203.0.113.0/24" or "2001:db8::/32"';
  if (slash < 0) return `must be an address block in CIDR notation (address/prefix), ${example}`;
  const address = s.slice(0, slash);
  const prefix = s.slice(slash + 1);
  const version = address.includes(':') ? 6 : 4;
  const bytes = version === 4 ? parseIPv4(address) : parseIPv6(address);
  if (!bytes) return `must start with an IPv4 or IPv6 address, ${example}`;
  const max = version === 4 ? 32 : 128;
  if (isPrefixLength(prefix, max)) return undefined;
  // A block with a note after it ("10.0.0.0/8 office"): its prefix length is fine, what follows
  // it is not, and saying the length is wrong sent people looking at the number.
  const length = /^[0-9]+/.exec(prefix)?.[0] ?? '';
  if (isPrefixLength(length, max))
    return `must be written as "${address}/${length}", with nothing after it`;
  return `must end with a prefix length from 0 to ${max} for an IPv${version} address`;
}

function isPrefixLength(s: string, max: number): boolean {
  return DECIMAL.test(s) && s.length <= 3 && Number(s) <= max;
}
