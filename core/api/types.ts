import type {
  BodyOf,
  EndpointName,
  EndpointOf,
  ResponseOf,
} from '../../shared/api/catalog/endpoints.ts';
import type { ListParams } from '../../shared/api/catalog/list.ts';
import type {
  AllOptional,
  ApiRequest,
  ItemOf,
  ListName,
} from '../../shared/api/catalog/requests.ts';
import type { Priority } from './governor.ts';
import type { ListPage, ProgressCallback } from './paginate.ts';

/*
 * The client's whole typed surface, derived from ENDPOINTS: adding an endpoint to the shared
 * catalog adds its method here, with its path parameters, body and response, and nothing else.
 */

export type CallOptions = {
  readonly signal?: AbortSignal | undefined;
  /** Default `interactive`: someone is waiting. Polling and prefetching pass `background`. */
  readonly priority?: Priority | undefined;
  /**
   * Retries after a network failure or a 502/503/504, for this call; default the client's
   * policy. A poll that runs again on its own timer passes 0: the next poll is its retry, and
   * retries would spend budget its interval did not reserve. 429s are retried regardless.
   */
  readonly maxRetries?: number | undefined;
};

export type { ItemOf, ListEndpoint, ListName } from '../../shared/api/catalog/requests.ts';

/** `client.call(name, request)`: path parameters by name, the body, list query and options. */
export type CallRequest<N extends EndpointName> = ApiRequest<N> & CallOptions;
export type CallArgs<N extends EndpointName> =
  object extends CallRequest<N> ? [request?: CallRequest<N>] : [request: CallRequest<N>];

/** A request for an endpoint given by its catalog entry, whose types are only known at run time. */
export type EndpointRequest = {
  readonly params?: Readonly<Record<string, string>> | undefined;
  readonly body?: unknown;
  readonly query?: ListParams | undefined;
} & CallOptions;

export type ListAllOptions = CallOptions & {
  readonly query?: ListParams;
  readonly onProgress?: ProgressCallback;
};

/** The path's parameter names in order: `/edges/https/{edge_id}/routes/{id}` → edge_id, id. */
type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? [Name, ...PathParamNames<Rest>]
  : [];
type Strings<T extends readonly string[]> = { [K in keyof T]: string };
type PathArgs<N extends EndpointName> = Strings<PathParamNames<EndpointOf<N>['path']>>;
type BodyArgs<N extends EndpointName> = EndpointOf<N>['body'] extends null
  ? []
  : AllOptional<BodyOf<N>> extends true
    ? [body?: BodyOf<N>]
    : [body: BodyOf<N>];

/** A facade method: path parameters in path order, then the body, then options. */
export type EndpointMethod<N extends EndpointName> = N extends ListName
  ? (query?: ListParams, options?: CallOptions) => Promise<ResponseOf<N>>
  : (...args: [...PathArgs<N>, ...BodyArgs<N>, options?: CallOptions]) => Promise<ResponseOf<N>>;

/** Beside each `list`: the items one by one, the raw pages, and everything at once. */
export type ListMethods<N extends ListName> = {
  readonly iterate: (query?: ListParams, options?: CallOptions) => AsyncGenerator<ItemOf<N>>;
  readonly pages: (
    query?: ListParams,
    options?: CallOptions,
  ) => AsyncGenerator<ListPage<ItemOf<N>>>;
  readonly listAll: (options?: ListAllOptions) => Promise<ItemOf<N>[]>;
};

type Head<S extends string> = S extends `${infer H}.${string}` ? H : S;
type Tail<S extends string, H extends string> = S extends `${H}.${infer T}` ? T : never;
type ListExtras<N extends string> = N extends ListName ? ListMethods<N> : unknown;

/** `tlsEdges.backend.replace` becomes `facade.tlsEdges.backend.replace(id, body)`. */
type Tree<Prefix extends string, Rest extends string> = {
  readonly [H in Head<Rest>]: H extends Rest
    ? EndpointMethod<`${Prefix}${H}` & EndpointName>
    : Tree<`${Prefix}${H}.`, Tail<Rest, H>>;
} & ListExtras<`${Prefix}list`>;

export type ApiFacade = Tree<'', EndpointName>;
