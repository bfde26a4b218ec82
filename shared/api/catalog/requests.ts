import type {
  AnyEndpoint,
  BodyOf,
  EndpointName,
  EndpointOf,
  PathParamsOf,
  ResponseOf,
} from './endpoints.ts';
import type { ListParams } from './list.ts';

/*
 * What a caller hands over for one endpoint, derived from ENDPOINTS: its path parameters by
 * name, its body and, for a list, the page it wants. The API client and the app's IPC contract
 * both take exactly this, so a new endpoint in the catalog reaches the renderer with no new code.
 */

export type ListEndpoint = Extract<AnyEndpoint, { readonly listKey: string }>;
export type ListName = ListEndpoint['name'];
export type ItemOf<N extends ListName> =
  ResponseOf<N> extends Readonly<Record<EndpointOf<N>['listKey'], readonly (infer T)[]>>
    ? T
    : never;

/** True when every field of a body may be left out (a command's `{}`, an IP policy's create). */
export type AllOptional<T> = Record<never, never> extends T ? true : false;

type ParamsPart<N extends EndpointName> = keyof PathParamsOf<N> extends never
  ? { readonly params?: undefined }
  : { readonly params: PathParamsOf<N> };
type BodyPart<N extends EndpointName> = EndpointOf<N>['body'] extends null
  ? { readonly body?: undefined }
  : AllOptional<BodyOf<N>> extends true
    ? { readonly body?: BodyOf<N> }
    : { readonly body: BodyOf<N> };
type QueryPart<N extends EndpointName> = N extends ListName
  ? { readonly query?: ListParams }
  : { readonly query?: undefined };

export type ApiRequest<N extends EndpointName> = ParamsPart<N> & BodyPart<N> & QueryPart<N>;
