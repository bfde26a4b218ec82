import { idKindOf } from '../../shared/api/values/ids.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { Account } from '../store/account.ts';
import { STORED_KINDS, type StoredKind } from '../store/records.ts';

function storedKindOf(id: string): StoredKind | undefined {
  const kind = idKindOf(id);
  return (STORED_KINDS as readonly string[]).includes(kind ?? '')
    ? (kind as StoredKind)
    : undefined;
}

/** 223 unless `id` names a resource of the caller's account (the schema already checked its kind). */
export function requireReference(account: Account, id: string, field: string): void {
  const kind = storedKindOf(id);
  if (!kind || !account.collections[kind].get(id))
    throw new SandboxApiError('invalidReference', `"${field}" refers to no resource: "${id}"`, {
      field,
    });
}

export function requireReferences(account: Account, ids: readonly string[], field: string): void {
  ids.forEach((id, i) => requireReference(account, id, `${field}[${i}]`));
}

/**
 * The first resource that refers to `id` and keeps it from being deleted: edges and routes by
 * their backend and mutual TLS modules, failover backends by their children, SSH certificates by
 * their authority. IP policies are never held: a deleted one acts as an empty policy.
 */
function firstReferrer(account: Account, id: string): string | undefined {
  const c = account.collections;
  for (const edge of c.tlsEdge.values())
    if (edge.backend?.backend_id === id || edge.mutual_tls?.certificate_authority_ids.includes(id))
      return edge.id;
  for (const edge of c.httpsEdge.values())
    if (edge.mutual_tls?.certificate_authority_ids.includes(id)) return edge.id;
  for (const route of c.httpsEdgeRoute.values())
    if (route.backend?.backend_id === id) return route.id;
  for (const failover of c.failoverBackend.values())
    if (failover.backends.includes(id)) return failover.id;
  for (const kind of ['sshUserCertificate', 'sshHostCertificate'] as const)
    for (const certificate of c[kind].values())
      if (certificate.ssh_certificate_authority_id === id) return certificate.id;
  return undefined;
}

/** 306 while anything refers to the record. */
export function refuseDeleteWhileReferenced(
  record: { readonly id: string },
  account: Account,
): void {
  const referrer = firstReferrer(account, record.id);
  if (referrer)
    throw new SandboxApiError('stillReferenced', `"${record.id}" is still used by "${referrer}"`, {
      referenced_by: referrer,
    });
}
