import { API_CALL_NAMES } from '../../../../shared/app/ipc/api-call-names.ts';
import type { Bridge } from '../../../../shared/app/ipc/bridge.ts';
import type { IpcCallName } from '../../../../shared/app/ipc/contract.ts';
import type { Item, CreatableGroup, ResourceKind } from './kind-shape.ts';

/*
 * The calls of a kind, by name. A name is built from the kind's group, so its type is the union
 * of that call of every group (`api.${CreatableGroup}.get`); a name the contract does not have (an
 * abuse report has no delete) is refused as it is built, and from there on the contract types
 * the request and the answer.
 */

function isApiCall<N extends string>(name: N): name is Extract<IpcCallName, N> {
  return API_CALL_NAMES.has(name);
}

/**
 * `name` as the contract's call of that name; a kind without the call is a bug of the window.
 * The methods below are async so that this, too, is a rejection like any failed call.
 */
export function apiCall<N extends string>(name: N): Extract<IpcCallName, N> {
  if (isApiCall(name)) return name;
  throw new Error(`The app has no call ${name}`);
}

/** A module's replace and delete: `params` is where its resource's path ids go. */
export function moduleCalls(
  bridge: Bridge,
  group: CreatableGroup,
  params: (id: string) => { readonly id: string; readonly edge_id?: string },
) {
  return {
    /** Replaces a module whole; answers the module as the API now holds it. */
    setModule: async (
      id: string,
      module: string,
      body: Record<string, unknown>,
    ): Promise<unknown> =>
      bridge.invoke(apiCall(`api.${group}.${module}.replace`), { params: params(id), body }),
    removeModule: async (id: string, module: string): Promise<void> => {
      await bridge.invoke(apiCall(`api.${group}.${module}.delete`), { params: params(id) });
    },
  };
}

/** A page as the window loads it: its items, and whether there are more after them. */
export type LoadedPage = { readonly items: Item[]; readonly more: boolean };

type ModuleCalls = ReturnType<typeof moduleCalls>;

export class KindCalls {
  readonly setModule: ModuleCalls['setModule'];
  readonly removeModule: ModuleCalls['removeModule'];

  constructor(
    private readonly bridge: Bridge,
    readonly kind: ResourceKind,
  ) {
    const modules = moduleCalls(bridge, kind.group, (id) => ({ id }));
    this.setModule = modules.setModule;
    this.removeModule = modules.removeModule;
  }

  async page(beforeId: string | undefined, limit = 100): Promise<LoadedPage> {
    const query = beforeId ? { limit, before_id: beforeId } : { limit };
    const envelope = await this.bridge.invoke(apiCall(`api.${this.kind.group}.list`), { query });
    // Every list envelope holds one array, under a key of the resource's own.
    const items: Item[] = Object.values(envelope).find(Array.isArray) ?? [];
    return { items, more: envelope.next_page_uri !== null };
  }

  async all(requestId: string): Promise<Item[]> {
    return this.bridge.invoke(apiCall(`api.${this.kind.group}.listAll`), { requestId });
  }

  /** `background` when no one waits for it: it goes after the person's clicks. */
  async get(id: string, priority?: 'background'): Promise<Item> {
    return this.bridge.invoke(apiCall(`api.${this.kind.group}.get`), {
      params: { id },
      ...(priority && { priority }),
    });
  }

  async create(body: Record<string, unknown>): Promise<Item> {
    return this.bridge.invoke(apiCall(`api.${this.kind.group}.create`), { body });
  }

  async update(id: string, body: Record<string, unknown>): Promise<Item> {
    return this.bridge.invoke(apiCall(`api.${this.kind.group}.update`), { params: { id }, body });
  }

  async delete(id: string): Promise<void> {
    await this.bridge.invoke(apiCall(`api.${this.kind.group}.delete`), { params: { id } });
  }

  cancel(requestId: string): Promise<boolean> {
    return this.bridge.invoke('api.cancel', requestId);
  }
}
