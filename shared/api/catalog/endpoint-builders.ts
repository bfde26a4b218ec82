import type { z } from 'zod';
import type { IdKind } from '../values/ids.ts';
import { listEnvelope, listQuerySchema } from './list.ts';
import type { ModuleTable } from '../kinds/module-forms.ts';

/*
 * The shapes the catalog (endpoints.ts) is written in: one operation, a list, an ordinary
 * collection's five, a module's three, each typed to the letter so that the client, the contract
 * and the sandbox get their names, paths and schemas from the catalog alone.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Path parameter name → the kind of id it holds; a malformed one is answered with 222. */
export type PathParams = Readonly<Record<string, IdKind>>;

/**
 * One operation of the API. `body` and `response` are null when there is none (a 204 has none);
 * `query` is the schema of the query parameters a list takes, null where none are accepted.
 */
export type Endpoint = {
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly pathParams: PathParams;
  readonly body: z.ZodType | null;
  readonly response: z.ZodType | null;
  readonly status: 200 | 201 | 204;
  readonly query: z.ZodType | null;
  readonly listKey?: string;
};

type Op<N, M, P, PP, B, R, S> = {
  readonly name: N;
  readonly method: M;
  readonly path: P;
  readonly pathParams: PP;
  readonly body: B;
  readonly response: R;
  readonly status: S;
  readonly query: null;
};

export function op<
  const N extends string,
  const M extends HttpMethod,
  const P extends string,
  const PP extends PathParams,
  B extends z.ZodType | null,
  R extends z.ZodType | null,
  const S extends Endpoint['status'],
>(
  name: N,
  method: M,
  path: P,
  pathParams: PP,
  body: B,
  response: R,
  status: S,
): Op<N, M, P, PP, B, R, S> {
  return { name, method, path, pathParams, body, response, status, query: null };
}

/** A list answers its items under `listKey`, with the list's uri and the next page's. */
export function list<
  const N extends string,
  const P extends string,
  const K extends string,
  I extends z.ZodType,
>(group: N, path: P, kind: IdKind, listKey: K, item: I) {
  return {
    ...op(`${group}.list`, 'GET', path, {}, null, listEnvelope(listKey, item), 200),
    query: listQuerySchema(kind),
    listKey,
  };
}

/** The five operations of an ordinary top-level collection. */
export function collection<
  const N extends string,
  const P extends string,
  const K extends string,
  I extends z.ZodType,
  C extends z.ZodType,
  CR extends z.ZodType,
  U extends z.ZodType,
>(r: { group: N; path: P; kind: IdKind; listKey: K; item: I; create: C; created: CR; update: U }) {
  const item = `${r.path}/{id}` as const;
  const id = { id: r.kind };
  return [
    op(`${r.group}.create`, 'POST', r.path, {}, r.create, r.created, 201),
    list(r.group, r.path, r.kind, r.listKey, r.item),
    op(`${r.group}.get`, 'GET', item, id, null, r.item, 200),
    op(`${r.group}.update`, 'PATCH', item, id, r.update, r.item, 200),
    op(`${r.group}.delete`, 'DELETE', item, id, null, null, 204),
  ] as const;
}

type ModuleOps<G extends string, P extends string, PP extends PathParams, T extends ModuleTable> = {
  [M in keyof T & string]:
    | Op<`${G}.${M}.replace`, 'PUT', `${P}/${M}`, PP, T[M]['write'], T[M]['read'], 200>
    | Op<`${G}.${M}.get`, 'GET', `${P}/${M}`, PP, null, T[M]['read'], 200>
    | Op<`${G}.${M}.delete`, 'DELETE', `${P}/${M}`, PP, null, null, 204>;
}[keyof T & string];

/** PUT (the bare module write form, replacing the whole module), GET and DELETE for each module. */
export function moduleOps<
  const G extends string,
  const P extends string,
  const PP extends PathParams,
  T extends ModuleTable,
>(group: G, parentPath: P, pathParams: PP, modules: T): ModuleOps<G, P, PP, T>[] {
  // Object.entries loses the per-module types; the mapped type above restores them.
  return Object.entries(modules).flatMap(([module, forms]) => {
    const path = `${parentPath}/${module}`;
    return [
      op(`${group}.${module}.replace`, 'PUT', path, pathParams, forms.write, forms.read, 200),
      op(`${group}.${module}.get`, 'GET', path, pathParams, null, forms.read, 200),
      op(`${group}.${module}.delete`, 'DELETE', path, pathParams, null, null, 204),
    ];
  }) as ModuleOps<G, P, PP, T>[];
}
