import { ENDPOINTS } from '../../../../shared/api/catalog/endpoints.ts';
import type { IdKind } from '../../../../shared/api/values/ids.ts';
import { exampleBody, unique, type Body, type Refs } from './examples.ts';

import type { ApiReply } from '../../../support/sandbox-client.ts';
import type { ReplyBody } from './http.ts';

export type { ApiReply };
export type Call = (method: string, path: string, body?: unknown) => Promise<ApiReply>;

/** The create endpoint of each kind of resource, from the catalog (create path + /{id} is its get). */
export const CREATE_OF: ReadonlyMap<IdKind, (typeof ENDPOINTS)[number]> = new Map(
  ENDPOINTS.filter((e) => e.name.endsWith('.create')).flatMap((create) => {
    const get = ENDPOINTS.find((e) => e.method === 'GET' && e.path === `${create.path}/{id}`);
    const kind = get && (get.pathParams as Record<string, IdKind>)['id'];
    return kind ? [[kind, create] as const] : [];
  }),
);

/** The kind of resource an endpoint answers with at its top level, if it is a resource. */
export function resourceKindOf(e: (typeof ENDPOINTS)[number]): IdKind | undefined {
  if (e.name.split('.').length === 3) return undefined; // a module
  if (e.name.endsWith('.create'))
    return [...CREATE_OF.entries()].find(([, c]) => c.name === e.name)?.[0];
  if (e.name.endsWith('.get') || e.name.endsWith('.update'))
    return (e.pathParams as Record<string, IdKind>)['id'];
  return undefined;
}

export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(params[p] ?? ''));
}

/** Makes resources through the API, failing loudly when the server refuses a valid request. */
export class Factory {
  private refsValue: Refs | undefined;

  constructor(readonly call: Call) {}

  get refs(): Refs {
    if (!this.refsValue) throw new Error('Factory.init() first');
    return this.refsValue;
  }

  async create(path: string, body: Body): Promise<ReplyBody> {
    const reply = await this.call('POST', path, body);
    if (reply.status !== 201)
      throw new Error(
        `POST ${path} ${JSON.stringify(body).slice(0, 300)} → ${reply.status} ${JSON.stringify(reply.body)}`,
      );
    return reply.body;
  }

  /** The resources that valid bodies refer to. */
  async init(): Promise<Refs> {
    const ipPolicy = (await this.create('/ip_policies', { description: 'refs' })).id;
    const certificateAuthority = (
      await this.create(
        '/certificate_authorities',
        exampleBody('certificateAuthorities.create', {} as Refs),
      )
    ).id;
    const httpResponseBackend = (await this.create('/backends/http_response', { body: 'ok' })).id;
    const tunnelGroupBackend = (
      await this.create('/backends/tunnel_group', { labels: { env: 'refs' } })
    ).id;
    const failoverBackend = (
      await this.create('/backends/failover', { backends: [httpResponseBackend] })
    ).id;
    const sshCertificateAuthority = (
      await this.create('/ssh_certificate_authorities', { private_key_type: 'ed25519' })
    ).id;
    this.refsValue = {
      ipPolicy,
      certificateAuthority,
      httpResponseBackend,
      tunnelGroupBackend,
      failoverBackend,
      sshCertificateAuthority,
    };
    return this.refsValue;
  }

  /** A fresh, unreferenced resource of `kind` (edges and routes with no modules); its id. */
  async make(kind: IdKind): Promise<string> {
    switch (kind) {
      case 'tlsEdge':
        return (await this.create('/edges/tls', { hostports: [`tls-${unique()}.example.com:443`] }))
          .id;
      case 'httpsEdge':
        return (
          await this.create('/edges/https', { hostports: [`https-${unique()}.example.com:443`] })
        ).id;
      case 'httpsEdgeRoute':
        return (await this.route()).id;
      case 'httpResponseBackend':
        return (await this.create('/backends/http_response', {})).id;
      default: {
        const create = CREATE_OF.get(kind);
        if (!create) throw new Error(`cannot make a ${kind}`);
        return (await this.create(create.path, exampleBody(create.name, this.refs))).id;
      }
    }
  }

  /** A fresh route with no modules, on `edgeId` or on a fresh edge. */
  async route(edgeId?: string, body: Body = {}): Promise<{ edge_id: string; id: string }> {
    const edge = edgeId ?? (await this.make('httpsEdge'));
    const route = await this.create(`/edges/https/${edge}/routes`, {
      match_type: 'path_prefix',
      match: `/r-${unique()}`,
      ...body,
    });
    return { edge_id: edge, id: route.id };
  }

  /** Fresh resources for every path parameter of `e`. */
  async paramsFor(e: (typeof ENDPOINTS)[number]): Promise<Record<string, string>> {
    const pp = e.pathParams as Record<string, IdKind>;
    if (pp['edge_id'] && pp['id']) return this.route();
    if (pp['edge_id']) return { edge_id: await this.make('httpsEdge') };
    if (pp['id']) return { id: await this.make(pp['id']) };
    return {};
  }
}
