import type { ApiCallEntry, ListAllRequest } from '../../shared/app/ipc/api-calls.ts';
import type { ApiProgress } from '../../shared/app/ipc/contract.ts';
import type { ApiClient } from './client.ts';
import type { EndpointRequest } from './types.ts';

export type IpcApiCallsOptions = {
  /** The active profile's client, asked for on every call: the active profile may change. */
  readonly client: () => Promise<ApiClient>;
  /** Each page of a list that has a `requestId`, for its `api.progress` events. */
  readonly onProgress: (progress: ApiProgress) => void;
};

/**
 * The contract's `api.*` calls, carried to the active profile's client. The dispatcher has
 * found each call's catalog entry and checked its arguments, so they go to the client as they
 * are; a `listAll` with a request id can be stopped with `api.cancel`.
 */
export function ipcApiCalls({ client, onProgress }: IpcApiCallsOptions) {
  const lists = new Map<string, AbortController>();

  const call = async (entry: ApiCallEntry, request: EndpointRequest | undefined) =>
    (await client()).callEndpoint(entry.endpoint, request);

  const listAll = async (
    { endpoint }: Extract<ApiCallEntry, { listAll: true }>,
    request: ListAllRequest | undefined,
  ): Promise<unknown[]> => {
    const api = await client();
    const controller = new AbortController();
    const requestId = request?.requestId;
    if (requestId !== undefined) {
      lists.get(requestId)?.abort();
      lists.set(requestId, controller);
    }
    try {
      return await api.listAllEndpoint(endpoint, {
        query: request?.query,
        signal: controller.signal,
        priority: request?.priority ?? 'interactive',
        onProgress: (loaded, pages) => {
          if (requestId !== undefined) onProgress({ requestId, loaded, pages });
        },
      });
    } finally {
      if (requestId !== undefined && lists.get(requestId) === controller) lists.delete(requestId);
    }
  };

  /** Stops a running `listAll` by its request id; true when there was one. */
  const cancel = (requestId: string): boolean => {
    const controller = lists.get(requestId);
    controller?.abort();
    return controller !== undefined;
  };

  /** Stops every running list, as the app closes. */
  const close = (): void => {
    for (const controller of lists.values()) controller.abort();
  };

  return { call, listAll, cancel, close };
}
