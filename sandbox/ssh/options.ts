import { isIP } from 'node:net';

/** `addr[/bits]`, as OpenSSH's addr_match_cidr_list reads each entry of the list. */
function isCidr(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^(0|[1-9][0-9]{0,2})$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Why sshd would refuse a certificate with this critical option value, or undefined. sshd
 * rejects the whole certificate over an option it cannot read, so the API refuses it up front.
 * Names were checked by the shared schema (319).
 */
export function criticalOptionProblem(name: string, value: string): string | undefined {
  if (name === 'force-command' && value === '') return 'must be a command, not empty';
  if (name === 'source-address' && !value.split(',').every(isCidr))
    return 'must be a comma-separated list of addresses or CIDR blocks, such as "192.0.2.0/24,2001:db8::1"';
  return undefined;
}
