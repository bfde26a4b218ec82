import { authModulesSet } from '../../shared/api/kinds/auth-modules.ts';
import { endpointPath, type ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { parseHostport } from '../../shared/api/values/hosts.ts';
import { ROUTE_MODULES } from '../../shared/api/kinds/https-edge-routes.ts';
import { HTTPS_EDGE_MODULES } from '../../shared/api/kinds/https-edges.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { Account } from '../store/account.ts';
import type {
  HTTPSEdgeRecord,
  HTTPSEdgeRouteRecord,
  RouteModules,
  TLSTerminationModule,
} from '../store/records.ts';
import type { Ctx, Handler } from './context.ts';
import { crud, mustGet, newDescribed, notFound } from './crud.ts';
import { moduleHandlers, storeNamedModules } from './edge-modules.ts';
import { renderAtEdgeTermination, renderModule, type RouteSite } from './modules.ts';
import { describedFields, patch } from './render.ts';

const EDGE_MODULES = Object.keys(HTTPS_EDGE_MODULES);
const ROUTE_MODULE_NAMES = Object.keys(ROUTE_MODULES) as (keyof RouteModules)[];

const NO_ROUTE_MODULES: RouteModules = Object.fromEntries(
  ROUTE_MODULE_NAMES.map((m) => [m, null]),
) as Record<keyof RouteModules, null>;

function routeSite(edge: HTTPSEdgeRecord, routeId: string): RouteSite {
  const first = edge.hostports[0];
  const host = (first && parseHostport(first)?.host) ?? `${edge.id.toLowerCase()}.edge.invalid`;
  return { routeId, edgeHost: host };
}

function renderRoute(route: HTTPSEdgeRouteRecord, edge: HTTPSEdgeRecord, base: string) {
  const site = routeSite(edge, route.id);
  const modules = Object.fromEntries(
    ROUTE_MODULE_NAMES.map((m) => [m, renderModule(m, route[m], base, site)]),
  );
  const uri = base + endpointPath('httpsEdgeRoutes.get', { edge_id: route.edge_id, id: route.id });
  return {
    edge_id: route.edge_id,
    ...describedFields(route, base, uri),
    match_type: route.match_type,
    match: route.match,
    ...modules,
  };
}

function renderEdge(edge: HTTPSEdgeRecord, base: string, account: Account) {
  return {
    ...describedFields(edge, base),
    hostports: edge.hostports,
    mutual_tls: renderModule('mutual_tls', edge.mutual_tls, base),
    tls_termination: renderAtEdgeTermination(edge.tls_termination),
    routes: edge.route_ids.flatMap((id) => {
      const route = account.collections.httpsEdgeRoute.get(id);
      return route ? [renderRoute(route, edge, base)] : [];
    }),
  };
}

const loadEdge = (ctx: Ctx, param: string) =>
  mustGet(ctx.account, 'httpsEdge', ctx.params[param] ?? '');

/** The route the path names, under the edge the path names; one under another edge is absent. */
function loadRoute(ctx: Ctx): { edge: HTTPSEdgeRecord; route: HTTPSEdgeRouteRecord } {
  const edge = loadEdge(ctx, 'edge_id');
  const id = ctx.params['id'] ?? '';
  const route = ctx.account.collections.httpsEdgeRoute.get(id);
  if (!route || route.edge_id !== edge.id) throw notFound(id);
  return { edge, route };
}

/** 308 when another route of the edge already uses `match`. */
function checkMatchFree(
  account: Account,
  edge: HTTPSEdgeRecord,
  match: string,
  self?: string,
): void {
  for (const id of edge.route_ids)
    if (id !== self && account.collections.httpsEdgeRoute.get(id)?.match === match)
      throw new SandboxApiError(
        'routeMatchTaken',
        `route "${id}" of this edge already matches "${match}"`,
        {
          field: 'match',
        },
      );
}

/** 312 when the merged route has more than one of oauth, oidc and saml. */
function checkAuthModules(route: RouteModules): void {
  const [first, second] = authModulesSet(route);
  if (second)
    throw new SandboxApiError(
      'conflictingAuthModules',
      `"${second}" cannot be set together with "${first}": a route takes one of oauth, oidc and saml`,
      { field: second },
    );
}

const edgeHandlers = crud<
  'httpsEdge',
  ParsedBodyOf<'httpsEdges.create'>,
  ParsedBodyOf<'httpsEdges.update'>
>({
  group: 'httpsEdges',
  kind: 'httpsEdge',
  create: (ctx, fields) => ({
    ...fields,
    hostports: ctx.body.hostports ?? [],
    mutual_tls: null,
    tls_termination: null,
    route_ids: [],
    ...storeNamedModules(ctx.body, EDGE_MODULES, ctx),
  }),
  update: (record, ctx) =>
    patch(record, {
      description: ctx.body.description,
      metadata: ctx.body.metadata,
      hostports: ctx.body.hostports,
      ...storeNamedModules(ctx.body, EDGE_MODULES, ctx),
    }),
  render: renderEdge,
  // Routes belong to their edge and go with it.
  afterDelete: (edge, ctx) => {
    for (const id of edge.route_ids) ctx.account.collections.httpsEdgeRoute.delete(id);
  },
});

type RouteCreate = ParsedBodyOf<'httpsEdgeRoutes.create'>;
type RouteUpdate = ParsedBodyOf<'httpsEdgeRoutes.update'>;

const routeHandlers: Record<string, Handler> = {
  'httpsEdgeRoutes.create': (ctx: Ctx) => {
    const body = ctx.body as RouteCreate;
    const edge = loadEdge(ctx, 'edge_id');
    checkMatchFree(ctx.account, edge, body.match);
    const route: HTTPSEdgeRouteRecord = {
      ...newDescribed('httpsEdgeRoute', body),
      edge_id: edge.id,
      match_type: body.match_type,
      match: body.match,
      ...NO_ROUTE_MODULES,
      ...storeNamedModules(body, ROUTE_MODULE_NAMES, ctx),
    };
    ctx.account.collections.httpsEdgeRoute.insert(route);
    const nextEdge = { ...edge, route_ids: [...edge.route_ids, route.id] };
    ctx.account.collections.httpsEdge.replace(nextEdge);
    return renderRoute(route, nextEdge, ctx.base);
  },
  'httpsEdgeRoutes.get': (ctx: Ctx) => {
    const { edge, route } = loadRoute(ctx);
    return renderRoute(route, edge, ctx.base);
  },
  'httpsEdgeRoutes.update': (ctx: Ctx) => {
    const body = ctx.body as RouteUpdate;
    const { edge, route } = loadRoute(ctx);
    if (body.match !== undefined) checkMatchFree(ctx.account, edge, body.match, route.id);
    const next = patch(route, {
      description: body.description,
      metadata: body.metadata,
      match_type: body.match_type,
      match: body.match,
      ...storeNamedModules(body, ROUTE_MODULE_NAMES, ctx),
    });
    checkAuthModules(next);
    ctx.account.collections.httpsEdgeRoute.replace(next);
    return renderRoute(next, edge, ctx.base);
  },
  'httpsEdgeRoutes.delete': (ctx: Ctx) => {
    const { edge, route } = loadRoute(ctx);
    ctx.account.collections.httpsEdgeRoute.delete(route.id);
    ctx.account.collections.httpsEdge.replace({
      ...edge,
      route_ids: edge.route_ids.filter((id) => id !== route.id),
    });
    return undefined;
  },
};

export const httpsEdgeHandlers: Record<string, Handler> = {
  ...edgeHandlers,
  ...moduleHandlers<HTTPSEdgeRecord>({
    group: 'httpsEdges',
    modules: EDGE_MODULES,
    load: (ctx) => loadEdge(ctx, 'id'),
    save: (ctx, next) => ctx.account.collections.httpsEdge.replace(next),
    check: () => undefined,
    render: (ctx, _edge, module, stored) =>
      module === 'tls_termination'
        ? renderAtEdgeTermination(stored as TLSTerminationModule | null)
        : renderModule(module, stored, ctx.base),
  }),
  ...routeHandlers,
  ...moduleHandlers<HTTPSEdgeRouteRecord>({
    group: 'httpsEdgeRoutes',
    modules: ROUTE_MODULE_NAMES,
    load: (ctx) => loadRoute(ctx).route,
    save: (ctx, next) => ctx.account.collections.httpsEdgeRoute.replace(next),
    check: checkAuthModules,
    render: (ctx, route, module, stored) => {
      const edge = mustGet(ctx.account, 'httpsEdge', route.edge_id);
      return renderModule(module, stored, ctx.base, routeSite(edge, route.id));
    },
  }),
};
