import { ENDPOINTS, type EndpointName } from '../../shared/api/catalog/endpoints.ts';
import type { ListParams } from '../../shared/api/catalog/list.ts';
import type { CallOptions, EndpointRequest, ListAllOptions, ListName } from './types.ts';

/** The client's calls by catalog name, which every facade method comes down to. */
export type CallsByName = {
  call(name: EndpointName, request?: EndpointRequest): Promise<unknown>;
  pages(name: ListName, request?: EndpointRequest): AsyncGenerator<unknown>;
  iterate(name: ListName, request?: EndpointRequest): AsyncGenerator<unknown>;
  listAll(name: ListName, options?: ListAllOptions): Promise<unknown[]>;
};
type Node = Record<string, unknown>;

/** The path's parameter names in path order, which the facade's positional arguments follow. */
function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
}

/**
 * `ipPolicies.create` → facade.ipPolicies.create(body, options), and so on for every endpoint:
 * the runtime side of `ApiFacade`, built from the same catalog the type is derived from.
 */
export function buildFacade(calls: CallsByName): Node {
  const root: Node = {};
  for (const e of ENDPOINTS) {
    const parts = e.name.split('.');
    const leaf = parts.pop() ?? '';
    let group = root;
    for (const part of parts) group = (group[part] ??= {}) as Node;
    const name = e.name as EndpointName;
    if ('listKey' in e) {
      const list = e.name as ListName;
      const request = (query?: ListParams, options?: CallOptions) => ({ ...options, query });
      group[leaf] = (query?: ListParams, options?: CallOptions) =>
        calls.call(name, request(query, options));
      group['iterate'] = (query?: ListParams, options?: CallOptions) =>
        calls.iterate(list, request(query, options));
      group['pages'] = (query?: ListParams, options?: CallOptions) =>
        calls.pages(list, request(query, options));
      group['listAll'] = (options?: ListAllOptions) => calls.listAll(list, options);
      continue;
    }
    const names = pathParamNames(e.path);
    const hasBody = e.body !== null;
    group[leaf] = (...args: unknown[]) => {
      const params = Object.fromEntries(names.map((n, i) => [n, args[i] as string]));
      const body = hasBody ? args[names.length] : undefined;
      const options = args[names.length + (hasBody ? 1 : 0)] as CallOptions | undefined;
      return calls.call(name, { ...options, params, body });
    };
  }
  return root;
}
