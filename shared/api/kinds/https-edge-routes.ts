import { z } from 'zod';
import { NonEmptyString, describedFields, resourceFields } from '../values/common.ts';
import { AUTH_MODULE_FORMS, authModulesSet } from './auth-modules.ts';
import { TRAFFIC_MODULES } from './edge-modules.ts';
import { idSchema } from '../values/ids.ts';
import { readModuleFields, writeModuleFields } from './module-forms.ts';
import {
  EndpointWebsocketTCPConverter,
  EndpointWebsocketTCPConverterMutate,
  HTTP_MODULES,
} from './route-modules.ts';
import { flag } from '../errors/rules.ts';

export const ROUTE_MODULES = {
  ...TRAFFIC_MODULES,
  ...HTTP_MODULES,
  ...AUTH_MODULE_FORMS,
  websocket_tcp_converter: {
    read: EndpointWebsocketTCPConverter,
    write: EndpointWebsocketTCPConverterMutate,
  },
} as const;

export const MATCH_TYPES = ['exact_path', 'path_prefix'] as const;
const MatchType = z.enum(MATCH_TYPES);
/** Each match type in words, for people. */
export const MATCH_TYPE_NAMES: Readonly<Record<(typeof MATCH_TYPES)[number], string>> = {
  exact_path: 'Exact path',
  path_prefix: 'Path prefix',
};

/** A path, a host, or a host and a path: one token without spaces. */
const RouteMatch = NonEmptyString.regex(/^\S+$/, 'must not contain spaces');

export const HTTPSEdgeRoute = z.looseObject({
  ...resourceFields('httpsEdgeRoute'),
  edge_id: idSchema('httpsEdge'),
  match_type: MatchType,
  match: z.string(),
  ...readModuleFields(ROUTE_MODULES),
});
export type HTTPSEdgeRoute = z.output<typeof HTTPSEdgeRoute>;

const routeWriteFields = {
  ...describedFields,
  match_type: MatchType,
  match: RouteMatch,
  ...writeModuleFields(ROUTE_MODULES),
};

function oneAuthModule(route: Parameters<typeof authModulesSet>[0], ctx: z.RefinementCtx): void {
  const [first, second] = authModulesSet(route);
  if (second)
    flag(
      ctx,
      [second],
      `cannot be set together with "${first}": a route takes one of oauth, oidc and saml`,
      'conflictingAuthModules',
    );
}

/** The owning edge is in the path, not the body. */
export const HTTPSEdgeRouteCreate = z.strictObject(routeWriteFields).superRefine(oneAuthModule);
export type HTTPSEdgeRouteCreate = z.input<typeof HTTPSEdgeRouteCreate>;

export const HTTPSEdgeRouteUpdate = z
  .strictObject(routeWriteFields)
  .partial()
  .superRefine(oneAuthModule);
export type HTTPSEdgeRouteUpdate = z.input<typeof HTTPSEdgeRouteUpdate>;
