import type {
  Endpoint,
  HttpMethod,
  PathParams,
} from '../../shared/api/catalog/endpoint-builders.ts';
import {
  endpoint,
  fillPath,
  type EndpointName,
  type EndpointOf,
  type ResponseOf,
} from '../../shared/api/catalog/endpoints.ts';
import { ID_PREFIXES, isIdOf } from '../../shared/api/values/ids.ts';
import { checkApiKey } from './api-key.ts';
import { buildFacade, type CallsByName } from './facade.ts';
import { parseRetryAfter, retryDelay } from './backoff.ts';
import { sleep, systemClock, type Clock } from '../../shared/node/clock.ts';
import {
  AbortError,
  ApiError,
  apiErrorFromResponse,
  InvalidArgumentError,
  InvalidResponseError,
} from './errors.ts';
import { RateGovernor, type BudgetState, type RateLimit } from './governor.ts';
import { sameOriginUrl } from './origin.ts';
import { collectAll, itemsOf, pagesOf, type ListPage } from './paginate.ts';
import { DEFAULT_RETRY_POLICY, retryKind, type RetryPolicy } from './retry.ts';
import { Transport, type HttpResponse, type TransportOptions } from './transport.ts';
import type {
  ApiFacade,
  CallArgs,
  CallOptions,
  CallRequest,
  EndpointRequest,
  ItemOf,
  ListAllOptions,
  ListEndpoint,
  ListName,
} from './types.ts';

/** What the UI may show while calls wait; `message` is ready to display. */
export type ApiEvent =
  | {
      readonly type: 'rate-limited';
      readonly operation: string;
      /** 1 for the first retry. */
      readonly attempt: number;
      readonly retryInMs: number;
      readonly message: string;
    }
  | {
      readonly type: 'retrying';
      readonly operation: string;
      readonly attempt: number;
      readonly retryInMs: number;
      /** Why the last attempt failed, as a person reads it. */
      readonly reason: string;
      readonly message: string;
    }
  | ({ readonly type: 'budget' } & BudgetState);

export type ApiClientOptions = {
  /** The profile's API address; https, or http to this machine only. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly transport?: TransportOptions;
  /**
   * The rolling window of this API key. Pass the same governor to every client of one key; by
   * default the client has its own, with `rateLimit` (the service's 120 per 60 s).
   */
  readonly governor?: RateGovernor;
  readonly rateLimit?: RateLimit;
  readonly retry?: Partial<RetryPolicy>;
  /** Runs inside the request loop; what it throws is dropped, so a UI bug cannot fail a call. */
  readonly onEvent?: (event: ApiEvent) => void;
  readonly clock?: Clock;
  readonly random?: () => number;
};

export type ApiClient = ApiFacade & {
  /** Any endpoint by its catalog name: `call('tlsEdges.backend.replace', { params: { id }, body })`. */
  call<N extends EndpointName>(name: N, ...args: CallArgs<N>): Promise<ResponseOf<N>>;
  pages<N extends ListName>(name: N, request?: CallRequest<N>): AsyncGenerator<ListPage<ItemOf<N>>>;
  iterate<N extends ListName>(name: N, request?: CallRequest<N>): AsyncGenerator<ItemOf<N>>;
  listAll<N extends ListName>(name: N, options?: ListAllOptions): Promise<ItemOf<N>[]>;
  /**
   * An endpoint by the catalog entry itself, for a caller that found the entry and checked the
   * request against its schemas already (the IPC dispatcher): no lookup, no second check.
   */
  callEndpoint(e: Endpoint, request?: EndpointRequest): Promise<unknown>;
  listAllEndpoint(e: ListEndpoint, options?: ListAllOptions): Promise<unknown[]>;
  budget(): BudgetState;
  readonly governor: RateGovernor;
  close(): Promise<void>;
};

function seconds(ms: number): string {
  return ms < 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * The API client of one profile: one keep-alive pool, one rolling window shared by every caller,
 * retries that never repeat a POST or PATCH the service may have processed, and a typed method
 * for every endpoint of the catalog.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const transport = new Transport(options.baseUrl, checkApiKey(options.apiKey), options.transport);
  const clock = options.clock ?? systemClock;
  const governor =
    options.governor ?? new RateGovernor({ limit: options.rateLimit, clock: options.clock });
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const emit = (event: ApiEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's failure is the listener's: the call it reports on goes on.
    }
  };
  const unsubscribe = options.onEvent
    ? governor.onChange((state) => emit({ type: 'budget', ...state }))
    : () => undefined;
  const basePath = transport.base.pathname.replace(/\/+$/, '');

  /** One call, through the governor, retried as `policy` allows; the parsed JSON or undefined. */
  async function send(
    method: HttpMethod,
    url: URL,
    body: unknown,
    operation: string,
    call: CallOptions,
  ): Promise<unknown> {
    const { signal } = call;
    const aborted = () => new AbortError(operation);
    const attempts = { rateLimited: 0, transient: 0 };
    const maxRetries = call.maxRetries ?? policy.maxRetries;
    for (;;) {
      const lease = await governor.acquire(call.priority ?? 'interactive', signal, aborted);
      let response: HttpResponse | undefined;
      let failure: unknown;
      try {
        response = await transport.send({ method, url, body, signal, operation });
      } catch (error) {
        failure = error;
      }
      if (response !== undefined && response.status < 300) {
        lease.release();
        return response.body;
      }
      if (response !== undefined) failure = errorOf(response);
      const kind = retryKind(method, failure, attempts.transient, maxRetries);
      const hintMs = parseRetryAfter(response?.retryAfter, Date.now());
      if (kind === 'rate-limited') {
        // The wait is the key's cool-down, shared by every caller: acquire() waits it out. The
        // real service sends no Retry-After: our own oldest request leaving the window stands in.
        const retryInMs = lease.refused((streak, freesInMs) =>
          retryDelay(streak, policy.rateLimitBackoff, hintMs ?? freesInMs, options.random),
        );
        attempts.rateLimited += 1;
        const message = `Rate limited, retrying in ${seconds(retryInMs)}`;
        emit({
          type: 'rate-limited',
          operation,
          attempt: attempts.rateLimited,
          retryInMs,
          message,
        });
        continue;
      }
      lease.release();
      if (kind === null) throw failure;
      const retryInMs = retryDelay(attempts.transient, policy.backoff, hintMs, options.random);
      attempts.transient += 1;
      const reason = failure instanceof Error ? failure.message : String(failure);
      const message = `${reason}; retrying in ${seconds(retryInMs)}`;
      emit({
        type: 'retrying',
        operation,
        attempt: attempts.transient,
        retryInMs,
        reason,
        message,
      });
      await sleep(clock, retryInMs, signal, aborted);
    }
  }

  function errorOf(response: HttpResponse): ApiError {
    if (response.status >= 400)
      return apiErrorFromResponse(response.status, response.body, response.operationId);
    // Following a redirect could carry the API key elsewhere; the service never sends one.
    const target = response.location === undefined ? '' : ` to ${response.location}`;
    return new ApiError({
      status: response.status,
      errorCode: null,
      msg: `The service answered with a redirect${target}, which is not followed`,
      operationId: response.operationId,
    });
  }

  function parse(e: Endpoint, body: unknown): unknown {
    if (e.response === null) return undefined;
    const parsed = e.response.safeParse(body);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    throw new InvalidResponseError(e.name, `${where}${issue?.message ?? 'unexpected shape'}`);
  }

  /** The endpoint of a name, its path ids checked: `..` or another kind's id never goes out. */
  function checked<N extends EndpointName>(name: N, request: EndpointRequest): EndpointOf<N> {
    const e = endpoint(name);
    const params = request.params ?? {};
    for (const [param, kind] of Object.entries(e.pathParams as PathParams)) {
      const value = params[param];
      if (!value) throw new InvalidArgumentError(e.name, param, 'is missing');
      if (!isIdOf(kind, value))
        throw new InvalidArgumentError(
          e.name,
          param,
          `must be an id starting with "${ID_PREFIXES[kind]}"`,
        );
    }
    return e;
  }

  function urlOf(e: Endpoint, request: EndpointRequest): URL {
    const path = fillPath(e.path, request.params ?? {});
    const url = new URL(`${basePath}${path}`, transport.base.origin);
    const { limit, before_id } = request.query ?? {};
    if (limit !== undefined) url.searchParams.set('limit', String(limit));
    if (before_id !== undefined) url.searchParams.set('before_id', before_id);
    return url;
  }

  async function execute(e: Endpoint, request: EndpointRequest): Promise<unknown> {
    // An operation that takes a body always sends one: commands take `{}`.
    const body = e.body === null ? undefined : (request.body ?? {});
    return parse(e, await send(e.method, urlOf(e, request), body, e.name, request));
  }

  function listPages(e: ListEndpoint, request: EndpointRequest): AsyncGenerator<ListPage<unknown>> {
    const fetchPage = async (nextPageUri: string | undefined) => {
      // The next-page address is checked before the request: the key stays on the base origin.
      const url =
        nextPageUri === undefined ? urlOf(e, request) : sameOriginUrl(transport.base, nextPageUri);
      const page = parse(e, await send('GET', url, undefined, e.name, request)) as Record<
        string,
        unknown
      >;
      return {
        items: page[e.listKey] as readonly unknown[],
        nextPageUri: page['next_page_uri'] as string | null,
      };
    };
    return pagesOf(fetchPage, e.name);
  }

  const listAll = (e: ListEndpoint, { onProgress, ...request }: ListAllOptions = {}) =>
    collectAll(listPages(e, request), onProgress);
  const byName: CallsByName = {
    // Async, so that a refused argument is a rejection like any other failure of the call.
    call: async (name, request = {}) => execute(checked(name, request), request),
    pages: (name, request = {}) => listPages(checked(name, request), request),
    iterate: (name, request = {}) => itemsOf(listPages(checked(name, request), request)),
    listAll: async (name, options) => listAll(checked(name, {}), options),
  };
  const core = {
    ...byName,
    callEndpoint: (e: Endpoint, request?: EndpointRequest) => execute(e, request ?? {}),
    listAllEndpoint: listAll,
    budget: () => governor.state(),
    governor,
    close: async () => {
      unsubscribe();
      await transport.close();
    },
  };
  return Object.assign(buildFacade(byName), core) as unknown as ApiClient;
}
