import { ENDPOINTS } from '../../shared/api/catalog/endpoints.ts';
import type { IdKind } from '../../shared/api/values/ids.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { Account } from '../store/account.ts';
import type { Described, RecordOf, StoredKind } from '../store/records.ts';
import { newId } from '../store/ids.ts';
import type { Ctx, Handler } from './context.ts';
import { listReply, now, patch } from './render.ts';

export type Render<K extends StoredKind> = (
  record: RecordOf[K],
  base: string,
  account: Account,
) => object;

export type CrudSpec<K extends StoredKind, Create, Update> = {
  /** The catalog's group name: `ipPolicies` for `ipPolicies.create` and the rest. */
  readonly group: string;
  readonly kind: K;
  /** The new record, from the validated body; `fields` holds its id, created_at, description and metadata. */
  readonly create: (
    ctx: Ctx<Create>,
    fields: Described,
  ) => RecordOf[K] | { record: RecordOf[K]; shownOnce: object } | Promise<RecordOf[K]>;
  /** Default: the body's fields replace the record's. */
  readonly update?: (record: RecordOf[K], ctx: Ctx<Update>) => RecordOf[K];
  readonly render: Render<K>;
  /** Throws when something still refers to the record. */
  readonly checkDelete?: (record: RecordOf[K], account: Account) => void;
  readonly afterDelete?: (record: RecordOf[K], ctx: Ctx) => void;
};

function listEndpoint(group: string) {
  const list = ENDPOINTS.find((e) => e.name === `${group}.list`);
  if (!list || !('listKey' in list)) throw new Error(`${group} has no list endpoint`);
  return list;
}

export function notFound(id: string): SandboxApiError {
  return new SandboxApiError('notFound', `no resource with id "${id}"`);
}

/** The id, created_at, description and metadata of a new record of `kind`, from its create body. */
export function newDescribed(
  kind: IdKind,
  body: { readonly description?: string | undefined; readonly metadata?: string | undefined },
): Described {
  return {
    id: newId(kind),
    created_at: now(),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.metadata !== undefined && { metadata: body.metadata }),
  };
}

/** The record the path's `id` names, in the caller's account; another account's is just as absent. */
export function mustGet<K extends StoredKind>(account: Account, kind: K, id: string): RecordOf[K] {
  const record = account.collections[kind].get(id);
  if (!record) throw notFound(id);
  return record;
}

/** Create, list, get, update and delete of an ordinary top-level collection. */
export function crud<K extends StoredKind, Create extends object, Update extends object>(
  spec: CrudSpec<K, Create, Update>,
): Record<string, Handler> {
  const { group, kind, render } = spec;
  const list = listEndpoint(group);
  const collection = (ctx: Ctx) => ctx.account.collections[kind];
  return {
    [`${group}.create`]: async (ctx: Ctx) => {
      const fields = newDescribed(kind, ctx.body as { description?: string; metadata?: string });
      const made = await spec.create(ctx as Ctx<Create>, fields);
      const { record, shownOnce } =
        'shownOnce' in made
          ? (made as { record: RecordOf[K]; shownOnce: object })
          : { record: made as RecordOf[K], shownOnce: {} };
      // After an await: the insert is a transaction of its own, not the caller's.
      return ctx.services.store.write(() => {
        collection(ctx).insert(record);
        return { ...render(record, ctx.base, ctx.account), ...shownOnce };
      });
    },
    [`${group}.list`]: (ctx: Ctx) =>
      listReply(
        ctx.base,
        list.path,
        list.listKey,
        ctx.query,
        collection(ctx).page(ctx.query.limit, ctx.query.before_id),
        (record) => render(record, ctx.base, ctx.account),
      ),
    [`${group}.get`]: (ctx: Ctx) =>
      render(mustGet(ctx.account, kind, ctx.params['id'] ?? ''), ctx.base, ctx.account),
    [`${group}.update`]: (ctx: Ctx) => {
      const record = mustGet(ctx.account, kind, ctx.params['id'] ?? '');
      const next = spec.update
        ? spec.update(record, ctx as Ctx<Update>)
        : patch(record, ctx.body as Update);
      collection(ctx).replace(next);
      return render(next, ctx.base, ctx.account);
    },
    [`${group}.delete`]: (ctx: Ctx) => {
      const record = mustGet(ctx.account, kind, ctx.params['id'] ?? '');
      spec.checkDelete?.(record, ctx.account);
      collection(ctx).delete(record.id);
      spec.afterDelete?.(record, ctx);
      return undefined;
    },
  };
}
