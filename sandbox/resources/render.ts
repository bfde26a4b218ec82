import type { Ref } from '../../shared/api/values/common.ts';
import { ENDPOINTS, type AnyEndpoint } from '../../shared/api/catalog/endpoints.ts';
import { idKindOf, type IdKind } from '../../shared/api/values/ids.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { Page } from '../store/collection.ts';
import type { Described } from '../store/records.ts';
import type { ListQuery } from './context.ts';

/**
 * The get endpoint of each kind, from the catalog (`ipPolicies.get` for ipPolicy). Module gets
 * (`tlsEdges.backend.get`) share their parent's id and are not the kind's own.
 */
export const GET_ENDPOINT_BY_KIND: ReadonlyMap<IdKind, AnyEndpoint> = new Map(
  ENDPOINTS.flatMap((e) => {
    const kind = (e.pathParams as Readonly<Record<string, IdKind>>)['id'];
    return kind && /^\w+\.get$/.test(e.name) ? [[kind, e] as const] : [];
  }),
);

/** The full URL of a top-level resource; routes live under their edge and build their own. */
export function uriOf(base: string, id: string): string {
  const kind = idKindOf(id);
  const get = kind && GET_ENDPOINT_BY_KIND.get(kind);
  // Routes live under their edge and have no path of their own kind alone.
  if (!get || Object.keys(get.pathParams).length !== 1) throw new Error(`no item path for ${id}`);
  return base + get.path.replace('{id}', encodeURIComponent(id));
}

export function refOf(base: string, id: string): Ref {
  return { id, uri: uriOf(base, id) };
}

/**
 * id, uri, created_at, description and metadata, in that order, as every representation starts.
 * Routes, whose path is under their edge, pass their own uri.
 */
export function describedFields(record: Described, base: string, uri = uriOf(base, record.id)) {
  return {
    id: record.id,
    uri,
    created_at: record.created_at,
    ...(record.description !== undefined && { description: record.description }),
    ...(record.metadata !== undefined && { metadata: record.metadata }),
  };
}

/** Fields a representation carries just as they are stored, in the order `keys` gives. */
export function storedFields<R extends object, K extends keyof R>(
  record: R,
  keys: readonly K[],
): Pick<R, K> {
  return Object.fromEntries(keys.map((key) => [key, record[key]])) as Pick<R, K>;
}

/** Creation time as the spec writes it: RFC 3339, UTC, with Z. */
export function now(): string {
  return new Date().toISOString();
}

/** A copy of `record` with the fields `changes` gives; absent (undefined) ones stay. */
export function patch<T extends object>(record: T, changes: object): T {
  const next = { ...record } as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) next[key] = value;
  return next as T;
}

/** The list envelope of one page. */
export function listReply<T>(
  base: string,
  path: string,
  key: string,
  query: ListQuery,
  page: Page<T> | undefined,
  render: (item: T) => unknown,
) {
  if (!page)
    throw new SandboxApiError('notFound', `"before_id" names no resource of this list`, {
      field: 'before_id',
    });
  const next =
    page.next === undefined
      ? null
      : `${base}${path}?${new URLSearchParams({ before_id: page.next, limit: String(query.limit) })}`;
  return { [key]: page.items.map(render), uri: base + path, next_page_uri: next };
}
