import { parseHostport } from '../../shared/api/values/hosts.ts';
import { hostLabel } from '../../shared/app/host-label.ts';
import type { ApiClient } from '../api/client.ts';

/** Where a new service goes when the account has no edge to learn its domain from. */
const FALLBACK_DOMAIN = 'example.com';

/**
 * A hostport for the service that no edge of the account serves yet: `<name>.<domain>:443`, the
 * domain being the one the account's edges use most (the parent of their hosts), so that a new
 * service sits beside the others; `-2`, `-3`… when the name is taken.
 */
export function suggestHostport(name: string, usedHostports: readonly string[]): string {
  const used = new Set(usedHostports.map((h) => h.toLowerCase()));
  const counts = new Map<string, number>();
  for (const hostport of used) {
    const host = parseHostport(hostport)?.host;
    const dot = host?.indexOf('.') ?? -1;
    if (!host || dot < 0 || !host.slice(dot + 1).includes('.')) continue;
    const domain = host.slice(dot + 1);
    counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  const domain = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? FALLBACK_DOMAIN;
  const label = hostLabel(name);
  for (let n = 1; ; n++) {
    const hostport = `${n === 1 ? label : `${label}-${n}`}.${domain}:443`;
    if (!used.has(hostport)) return hostport;
  }
}

/** The hostports every edge of the account serves. */
export async function usedHostports(api: Pick<ApiClient, 'httpsEdges' | 'tlsEdges'>) {
  const [https, tls] = await Promise.all([api.httpsEdges.listAll(), api.tlsEdges.listAll()]);
  return [...https, ...tls].flatMap((edge) => edge.hostports);
}
