import { z } from 'zod';
import {
  ENDPOINTS,
  type AnyEndpoint,
  type EndpointName,
  type ResponseOf,
} from '../../api/catalog/endpoints.ts';
import { idSchema, type IdKind } from '../../api/values/ids.ts';
import { LIST_LIMIT_MAX } from '../../api/catalog/list.ts';
import { listAllCallName } from './api-call-names.ts';
import type { ApiRequest, ItemOf, ListEndpoint, ListName } from '../../api/catalog/requests.ts';

/*
 * Every endpoint of the catalog as a call of the app's contract, derived rather than listed:
 * `api.ipPolicies.create`, `api.tlsEdges.backend.replace`, … and `api.<group>.listAll` beside
 * each list. A new endpoint in ENDPOINTS is a new call here with no other change.
 */

type GroupOf<L extends ListName> = L extends `${infer G}.list` ? G : never;
export type ListAllCallName = `api.${GroupOf<ListName>}.listAll`;
export type ListOfListAll<C extends ListAllCallName> = C extends `api.${infer G}.listAll`
  ? `${G}.list` & ListName
  : never;

/**
 * `background`: no one waits for the answer (a screen reading again what the service changes by
 * itself), so the call goes after the person's clicks, as the monitor's polls do.
 */
const CallPriority = z.enum(['interactive', 'background']);
type Prioritised<R> = R & { readonly priority?: z.infer<typeof CallPriority> };

export type ApiCallArgs<N extends EndpointName> =
  object extends ApiRequest<N>
    ? [request?: Prioritised<ApiRequest<N>>]
    : [request: Prioritised<ApiRequest<N>>];

/** A long list: `requestId` names its `api.progress` events and lets `api.cancel` stop it. */
const ListAllRequest = z.strictObject({
  query: z
    .strictObject({
      limit: z.int().min(1).max(LIST_LIMIT_MAX).optional(),
      before_id: z.string().max(100).optional(),
    })
    .optional(),
  requestId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  /** `background` when nobody waits on it (references resolved for a view). */
  priority: CallPriority.optional(),
});
export type ListAllRequest = z.input<typeof ListAllRequest>;

export type ApiCallTypes = {
  [N in EndpointName as `api.${N}`]: { args: ApiCallArgs<N>; result: ResponseOf<N> };
} & {
  [C in ListAllCallName]: { args: [request?: ListAllRequest]; result: ItemOf<ListOfListAll<C>>[] };
};

function paramsSchema(pathParams: Readonly<Record<string, IdKind>>) {
  const entries = Object.entries(pathParams);
  if (entries.length === 0) return z.undefined().optional();
  return z.strictObject(Object.fromEntries(entries.map(([name, kind]) => [name, idSchema(kind)])));
}

/**
 * The envelope of a request. The dispatcher checks the body on its own, with the endpoint's
 * schema and the API's error mapping, so that it is refused with the code and field the API
 * would name.
 */
function requestSchema(e: AnyEndpoint) {
  const request = z.strictObject({
    params: paramsSchema(e.pathParams),
    body: e.body === null ? z.undefined().optional() : z.unknown(),
    query: 'listKey' in e ? ListAllRequest.shape.query : z.undefined().optional(),
    priority: CallPriority.optional(),
  });
  const optional = Object.keys(e.pathParams).length === 0;
  return z.tuple([optional ? request.optional() : request]);
}

/** A call of the contract by the catalog entry it carries, with the schema of its arguments. */
export type ApiCallEntry =
  | { readonly endpoint: AnyEndpoint; readonly args: z.ZodType; readonly listAll: false }
  | { readonly endpoint: ListEndpoint; readonly args: z.ZodType; readonly listAll: true };

/**
 * Call name → the endpoint it carries. What each call answers needs no schema of its own here:
 * the client parses every answer with the endpoint's `response` before it is handed back.
 */
export const API_CALLS: ReadonlyMap<string, ApiCallEntry> = new Map(
  ENDPOINTS.flatMap((e): [string, ApiCallEntry][] => {
    const call: [string, ApiCallEntry] = [
      `api.${e.name}`,
      { endpoint: e, args: requestSchema(e), listAll: false },
    ];
    if (!('listKey' in e)) return [call];
    return [
      call,
      [
        listAllCallName(e.name),
        { endpoint: e, args: z.tuple([ListAllRequest.optional()]), listAll: true },
      ],
    ];
  }),
);
