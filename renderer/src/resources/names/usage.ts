import { BACKEND_KINDS } from '../../../../shared/api/kinds/backends.ts';
import { idKindOf, type IdKind } from '../../../../shared/api/values/ids.ts';
import type { TunnelSession } from '../../../../shared/api/kinds/tunnel-sessions.ts';
import { hrefOf, type Item } from '../kinds/kind-shape.ts';
import { kindOf } from '../kinds/kind-list.ts';
import { shortId, type References } from './references.svelte.ts';

/*
 * What uses a resource: the edges, routes and failover backends that refer to it, the SSH
 * certificates an SSH certificate authority signed, and the online agents connected with a
 * credential. Read from the references cache (every edge and failover backend, loaded once in the
 * background) and the monitor's sessions, never a request of its own.
 */

/** One user of a resource: `id` names it; `within` is the edge of a route. */
export type Use = {
  readonly id: string;
  readonly kind: string;
  /** Its description, or a short id while it has none. */
  readonly label: string;
  readonly described: boolean;
  readonly href: string | undefined;
  /** Where the reference sits: a module's field ("backend") or a route's match. */
  readonly via: string | undefined;
};

export type Usage = {
  readonly uses: readonly Use[];
  /** The online agents connected with this credential. */
  readonly agents: readonly TunnelSession[];
  /** False while the lists it is read from are still loading. */
  readonly complete: boolean;
  /** True when one of those lists could not be read: there may be more users. */
  readonly partial: boolean;
};

const EDGES: readonly IdKind[] = ['tlsEdge', 'httpsEdge'];

/** Which kinds can refer to one of `kind`; none for a kind nothing refers to. */
const USERS: Partial<Record<IdKind, readonly IdKind[]>> = {
  ...Object.fromEntries(BACKEND_KINDS.map((k) => [k, [...EDGES, 'failoverBackend']])),
  ipPolicy: EDGES,
  certificateAuthority: EDGES,
  sshCertificateAuthority: ['sshUserCertificate', 'sshHostCertificate'],
};
const CREDENTIALS: readonly IdKind[] = ['credential', 'sshCredential'];

/** True when `value` holds `id` anywhere: in a `{ id, uri }` reference, a list, a module. */
function mentions(value: unknown, id: string): boolean {
  if (value === id) return true;
  if (Array.isArray(value)) return value.some((v) => mentions(v, id));
  if (typeof value === 'object' && value !== null)
    return Object.values(value).some((v) => mentions(v, id));
  return false;
}

/** The top-level fields of `item` (its own id and uri aside) that hold `id`. */
function fieldsHolding(item: Item, id: string): string[] {
  return Object.entries(item)
    .filter(([name, value]) => name !== 'id' && name !== 'uri' && mentions(value, id))
    .map(([name]) => name);
}

function usesIn(user: Item, id: string): Use[] {
  const kind = idKindOf(user.id);
  const windowKind = kind ? kindOf(kind) : undefined;
  if (!windowKind) return [];
  const base = {
    id: user.id,
    kind: windowKind.singular,
    label: user.description || shortId(user.id),
    described: Boolean(user.description),
    href: hrefOf(windowKind, user.id),
  };
  const uses: Use[] = [];
  const routes = (user['routes'] as Item[] | undefined) ?? [];
  for (const name of fieldsHolding(user, id)) {
    if (name !== 'routes')
      uses.push({ ...base, via: windowKind.modules?.find((m) => m.name === name)?.label });
  }
  for (const route of routes)
    if (fieldsHolding(route, id).length > 0)
      uses.push({ ...base, via: `route ${String(route['match'] ?? route.id)}` });
  return uses;
}

/** What uses the resource `id` names; undefined for a kind nothing can use. */
export function usageOf(
  id: string,
  references: References,
  sessions: readonly TunnelSession[],
): Usage | undefined {
  const kind = idKindOf(id);
  if (kind && CREDENTIALS.includes(kind))
    return {
      uses: [],
      agents: sessions.filter((s) => s.credential.id === id),
      complete: true,
      partial: false,
    };
  const users = kind ? USERS[kind] : undefined;
  if (!users) return undefined;
  const lists = users.map((k) => references.all(k));
  return {
    uses: lists.flatMap((l) => l.items).flatMap((user) => (user.id === id ? [] : usesIn(user, id))),
    agents: [],
    complete: lists.every((l) => l.complete),
    partial: lists.some((l) => l.failed),
  };
}

/**
 * What deleting these does, in a sentence, or undefined when nothing uses them: `many` when more
 * than one is deleted at once.
 */
export function deleteImpact(
  usages: readonly (Usage | undefined)[],
  many = usages.length > 1,
): string | undefined {
  const agents = usages.flatMap((u) => u?.agents ?? []);
  const uses = usages.flatMap((u) => u?.uses ?? []);
  const what = many ? 'these credentials' : 'this credential';
  if (agents.length > 0)
    return agents.length === 1
      ? `1 online agent uses ${what} and will be disconnected.`
      : `${agents.length} online agents use ${what} and will be disconnected.`;
  if (uses.length === 0) return undefined;
  const it = many ? 'them' : 'it';
  return `In use by ${uses.map(describe).join('; ')}: the API refuses to delete ${it} while ${many ? 'they are' : 'it is'} in use.`;
}

function describe(use: Use): string {
  const name = use.described ? `'${use.label}'` : use.label;
  return `${use.kind} ${name}${use.via ? ` (${use.via})` : ''}`;
}
