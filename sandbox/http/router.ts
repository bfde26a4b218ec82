import type { HttpMethod } from '../../shared/api/catalog/endpoint-builders.ts';
import type { AnyEndpoint } from '../../shared/api/catalog/endpoints.ts';

export type RouteMatch =
  | {
      readonly kind: 'found';
      readonly endpoint: AnyEndpoint;
      readonly params: Record<string, string>;
    }
  | { readonly kind: 'methodNotAllowed'; readonly allow: readonly HttpMethod[] }
  | { readonly kind: 'unknownPath' };

type Node = {
  readonly literals: Map<string, Node>;
  param: Node | undefined;
  /** Each endpoint with the names of its parameters, in path order (the same position may be named differently). */
  readonly methods: Map<
    string,
    { readonly endpoint: AnyEndpoint; readonly names: readonly string[] }
  >;
};

const newNode = (): Node => ({ literals: new Map(), param: undefined, methods: new Map() });
const UNKNOWN: RouteMatch = { kind: 'unknownPath' };

/**
 * A trie over path segments built from the endpoint catalog: literal segments before parameters,
 * so that `/edges/https/{id}/routes` never reads `routes` as an id. Segments are percent-decoded;
 * a path that does not decode, or has an empty segment, names nothing.
 */
export function createRouter(endpoints: readonly AnyEndpoint[]) {
  const root = newNode();
  for (const endpoint of endpoints) {
    let node = root;
    const names: string[] = [];
    for (const segment of endpoint.path.split('/').slice(1)) {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param !== undefined) {
        names.push(param);
        node = node.param ??= newNode();
      } else {
        let next = node.literals.get(segment);
        if (!next) node.literals.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.methods.set(endpoint.method, { endpoint, names });
  }

  return function match(method: string, path: string): RouteMatch {
    if (!path.startsWith('/')) return UNKNOWN;
    let node = root;
    const values: string[] = [];
    for (const raw of path.slice(1).split('/')) {
      let segment: string;
      try {
        segment = decodeURIComponent(raw);
      } catch {
        return UNKNOWN;
      }
      if (segment === '') return UNKNOWN;
      const literal = node.literals.get(segment);
      if (literal) node = literal;
      else if (node.param) {
        values.push(segment);
        node = node.param;
      } else return UNKNOWN;
    }
    if (node.methods.size === 0) return UNKNOWN;
    const found = node.methods.get(method);
    if (!found)
      return { kind: 'methodNotAllowed', allow: [...node.methods.keys()] as HttpMethod[] };
    const params = Object.fromEntries(found.names.map((name, i) => [name, values[i] ?? '']));
    return { kind: 'found', endpoint: found.endpoint, params };
  };
}
