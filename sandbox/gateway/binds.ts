import { randomBytes, randomInt } from 'node:crypto';
import { aclPermitsBind } from '../../shared/api/values/acl.ts';
import { isDomainName } from '../../shared/api/values/hosts.ts';

/**
 * Bind addresses that name nothing: OpenSSH sends `localhost` for `-R port:host:hostport` and
 * the empty string for `-R *:port:…`; the others are the listen-everywhere and loopback
 * addresses a user may write out. Each asks the service to assign a hostname.
 */
const UNNAMED_BIND_ADDRESSES: ReadonlySet<string> = new Set([
  '',
  '*',
  'localhost',
  '0.0.0.0',
  '::',
  '127.0.0.1',
  '::1',
]);

/** Where assigned hostnames live: a reserved TLD, so that no sandbox name can ever resolve. */
export const ASSIGNED_HOST_SUFFIX = '.tunnel.sandbox.invalid';

/** The range ports are assigned from when `-R` asks for port 0, as a TCP tunnel service would. */
const ASSIGNED_PORTS = { min: 10_000, max: 65_536 } as const;

export type Bind = {
  readonly host: string;
  readonly port: number;
  /** True when the service chose the hostname (the client named none). */
  readonly assigned: boolean;
};

export type BindDecision =
  | { readonly ok: true; readonly bind: Bind }
  | { readonly ok: false; readonly bind: Bind; readonly reason: string };

/** What a `tcpip-forward` request for `bindAddr:bindPort` binds, with the names filled in. */
export function resolveBind(bindAddr: string, bindPort: number): Bind {
  const address = bindAddr.toLowerCase();
  const assigned = UNNAMED_BIND_ADDRESSES.has(address);
  return {
    host: assigned ? `${randomBytes(6).toString('hex')}${ASSIGNED_HOST_SUFFIX}` : address,
    port: bindPort === 0 ? randomInt(ASSIGNED_PORTS.min, ASSIGNED_PORTS.max) : bindPort,
    assigned,
  };
}

/**
 * Whether the credential's ACL lets the bind through. A bind is a domain and an address at once
 * (`app.example.com` and `app.example.com:80`), so a domain rule or an address rule may permit
 * it; an IP address is only an address. Assigned hostnames are checked like any other, so an
 * ACL that lists binds confines a credential to exactly those.
 */
export function decideBind(acl: readonly string[], bind: Bind): BindDecision {
  const candidates = [`${formatHost(bind.host)}:${bind.port}`];
  if (isDomainName(bind.host)) candidates.push(bind.host);
  if (candidates.some((candidate) => aclPermitsBind(acl, candidate))) return { ok: true, bind };
  const rules = acl.join(', ');
  const reason = bind.assigned
    ? `this credential's ACL (${rules}) permits only the binds it names; ` +
      'name one, e.g. -R app.example.com:80:localhost:8080'
    : `${bind.host} is not permitted by this credential's ACL (${rules})`;
  return { ok: false, bind, reason };
}

/** IPv6 addresses are bracketed in `host:port`, as the ACL's address rules write them. */
export function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
