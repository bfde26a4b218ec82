import type { ApiClient } from '../../api/client.ts';
import type { SnapshotKind } from '../../../shared/app/snapshot-document.ts';
import { createForm } from '../export/export.ts';
import { KINDS, type Resource } from '../resources/kinds.ts';

/** Whether `actual` holds everything `wanted` says: objects key by key, the rest equal. */
function holds(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted))
    return (
      Array.isArray(actual) &&
      actual.length === wanted.length &&
      wanted.every((w, i) => holds(actual[i], w))
    );
  if (wanted !== null && typeof wanted === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(wanted).every(([key, w]) =>
      holds((actual as Record<string, unknown>)[key], w),
    );
  }
  return actual === wanted;
}

export type Lookup = {
  readonly client: Pick<ApiClient, 'call' | 'listAll'>;
  readonly kind: SnapshotKind;
  /** The create body that was sent, references as ids. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly edgeId?: string;
  /** Ids that are not this create's: the target's before the apply, and what the apply made. */
  readonly known: ReadonlySet<string>;
  readonly signal?: AbortSignal;
};

/**
 * The resource a create made before the apply stopped, if it made one: a resource of its kind
 * that the account did not hold when planned, that no other step made, holding the create body.
 * A POST is never sent twice without this look-up coming back empty.
 */
export async function findCreated(lookup: Lookup): Promise<string | undefined> {
  const { client, kind, signal } = lookup;
  const call = client.call as (name: string, request: object) => Promise<unknown>;
  const listAll = client.listAll as (name: string, options: object) => Promise<Resource[]>;
  const candidates =
    kind === 'httpsEdgeRoute'
      ? (((await call('httpsEdges.get', { params: { id: lookup.edgeId }, signal })) as Resource)[
          'routes'
        ] as Resource[])
      : await listAll(`${KINDS[kind].group}.list`, { signal });
  const found = candidates.find(
    (resource) => !lookup.known.has(resource.id) && holds(createForm(kind, resource), lookup.body),
  );
  return found?.id;
}
