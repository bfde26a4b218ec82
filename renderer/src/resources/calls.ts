import type { Bridge } from '../../../shared/ipc/bridge.ts';
import type { Item, ResourceKind } from './kind.ts';

/*
 * The five calls of a kind, by name. The names are built from the kind's group at run time, so
 * their static types are lost; the catalog (shared/api/endpoints.ts) is what guarantees that
 * `api.<group>.<verb>` exists, and core checks every request before it leaves.
 */

type Invoke = (name: string, request?: unknown) => Promise<unknown>;

export type ListPage = { readonly items: Item[]; readonly more: boolean };

export class KindCalls {
  private readonly invoke: Invoke;

  constructor(
    bridge: Bridge,
    readonly kind: ResourceKind,
  ) {
    this.invoke = bridge.invoke.bind(bridge) as Invoke;
  }

  private call(verb: string, request?: unknown): Promise<unknown> {
    return this.invoke(`api.${this.kind.group}.${verb}`, request);
  }

  async page(beforeId: string | undefined, limit = 100): Promise<ListPage> {
    const query = beforeId ? { limit, before_id: beforeId } : { limit };
    const envelope = (await this.call('list', { query })) as Record<string, unknown>;
    // Every list envelope holds one array, under a key of the resource's own.
    const items = Object.values(envelope).find(Array.isArray) as Item[] | undefined;
    return { items: items ?? [], more: envelope['next_page_uri'] !== null };
  }

  all(requestId: string): Promise<Item[]> {
    return this.call('listAll', { requestId }) as Promise<Item[]>;
  }

  get(id: string): Promise<Item> {
    return this.call('get', { params: { id } }) as Promise<Item>;
  }

  create(body: Record<string, unknown>): Promise<Item> {
    return this.call('create', { body }) as Promise<Item>;
  }

  update(id: string, body: Record<string, unknown>): Promise<Item> {
    return this.call('update', { params: { id }, body }) as Promise<Item>;
  }

  async delete(id: string): Promise<void> {
    await this.call('delete', { params: { id } });
  }

  /** Replaces a module whole; answers the module as the API now holds it. */
  setModule(id: string, module: string, body: Record<string, unknown>): Promise<unknown> {
    return this.call(`${module}.replace`, { params: { id }, body });
  }

  async removeModule(id: string, module: string): Promise<void> {
    await this.call(`${module}.delete`, { params: { id } });
  }

  cancel(requestId: string): Promise<unknown> {
    return this.invoke('api.cancel', requestId);
  }
}
