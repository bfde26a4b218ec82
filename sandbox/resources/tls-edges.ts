import { moduleBlockedByUpstreamTermination } from '../../shared/api/kinds/edge-modules.ts';
import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { TLS_EDGE_MODULES } from '../../shared/api/kinds/tls-edges.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { TLSEdgeRecord } from '../store/records.ts';
import { crud, mustGet } from './crud.ts';
import { moduleHandlers, storeNamedModules } from './edge-modules.ts';
import { renderModule } from './modules.ts';
import { describedFields, patch } from './render.ts';

const MODULES = Object.keys(TLS_EDGE_MODULES);

/** 310 when the merged edge terminates upstream and enables a module that needs the traffic. */
function checkTermination(edge: TLSEdgeRecord): void {
  const blocked = moduleBlockedByUpstreamTermination(edge);
  if (blocked)
    throw new SandboxApiError(
      'moduleNeedsEdgeTermination',
      `"${blocked}" is not allowed when "tls_termination.terminate_at" is "upstream"`,
      { field: blocked },
    );
}

function render(record: TLSEdgeRecord, base: string) {
  return {
    ...describedFields(record, base),
    hostports: record.hostports,
    backend: renderModule('backend', record.backend, base),
    ip_restriction: renderModule('ip_restriction', record.ip_restriction, base),
    mutual_tls: renderModule('mutual_tls', record.mutual_tls, base),
    tls_termination: renderModule('tls_termination', record.tls_termination, base),
  };
}

type Body = ParsedBodyOf<'tlsEdges.create'>;

export const tlsEdgeHandlers = {
  ...crud<'tlsEdge', Body, ParsedBodyOf<'tlsEdges.update'>>({
    group: 'tlsEdges',
    kind: 'tlsEdge',
    create: (ctx, fields) => ({
      ...fields,
      hostports: ctx.body.hostports ?? [],
      backend: null,
      ip_restriction: null,
      mutual_tls: null,
      tls_termination: null,
      ...storeNamedModules(ctx.body, MODULES, ctx),
    }),
    // Modules the body names replace the stored ones whole; the others stay.
    update: (record, ctx) => {
      const next = patch(record, {
        description: ctx.body.description,
        metadata: ctx.body.metadata,
        hostports: ctx.body.hostports,
        ...storeNamedModules(ctx.body, MODULES, ctx),
      });
      checkTermination(next);
      return next;
    },
    render,
  }),
  ...moduleHandlers<TLSEdgeRecord>({
    group: 'tlsEdges',
    modules: MODULES,
    load: (ctx) => mustGet(ctx.account, 'tlsEdge', ctx.params['id'] ?? ''),
    save: (ctx, next) => ctx.account.collections.tlsEdge.replace(next),
    check: checkTermination,
    render: (ctx, _edge, module, stored) => renderModule(module, stored, ctx.base),
  }),
};
