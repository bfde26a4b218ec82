import type { ParsedBodyOf } from '../../shared/api/catalog/endpoints.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { Account } from '../store/account.ts';
import type { Ctx } from './context.ts';
import { crud } from './crud.ts';
import { refuseDeleteWhileReferenced, requireReferences } from './references.ts';
import { describedFields, storedFields, patch } from './render.ts';

/**
 * 223 when a child does not exist, or when `self` is reachable from the children (a failover
 * backend that would, through other failover backends, fail over to itself).
 */
function checkChildren(account: Account, children: readonly string[], self?: string): void {
  requireReferences(account, children, 'backends');
  if (self === undefined) return;
  const seen = new Set<string>();
  const stack = [...children];
  while (stack.length > 0) {
    const id = stack.pop() ?? '';
    if (id === self)
      throw new SandboxApiError(
        'invalidReference',
        `"backends" would make "${self}" fail over to itself`,
        {
          field: 'backends',
        },
      );
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(account.collections.failoverBackend.get(id)?.backends ?? []));
  }
}

export const failoverBackendHandlers = crud<
  'failoverBackend',
  ParsedBodyOf<'failoverBackends.create'>,
  ParsedBodyOf<'failoverBackends.update'>
>({
  group: 'failoverBackends',
  kind: 'failoverBackend',
  create: (ctx, fields) => {
    checkChildren(ctx.account, ctx.body.backends);
    return { ...fields, backends: ctx.body.backends };
  },
  update: (record, ctx: Ctx<ParsedBodyOf<'failoverBackends.update'>>) => {
    if (ctx.body.backends) checkChildren(ctx.account, ctx.body.backends, record.id);
    return patch(record, ctx.body);
  },
  render: (record, base) => ({ ...describedFields(record, base), backends: record.backends }),
  checkDelete: refuseDeleteWhileReferenced,
});

export const httpResponseBackendHandlers = crud<
  'httpResponseBackend',
  ParsedBodyOf<'httpResponseBackends.create'>,
  ParsedBodyOf<'httpResponseBackends.update'>
>({
  group: 'httpResponseBackends',
  kind: 'httpResponseBackend',
  create: (ctx, fields) => ({
    ...fields,
    body: ctx.body.body,
    headers: ctx.body.headers,
    status_code: ctx.body.status_code,
  }),
  render: (record, base) => ({
    ...describedFields(record, base),
    ...storedFields(record, ['body', 'headers', 'status_code']),
  }),
  checkDelete: refuseDeleteWhileReferenced,
});

export const tunnelGroupBackendHandlers = crud<
  'tunnelGroupBackend',
  ParsedBodyOf<'tunnelGroupBackends.create'>,
  ParsedBodyOf<'tunnelGroupBackends.update'>
>({
  group: 'tunnelGroupBackends',
  kind: 'tunnelGroupBackend',
  create: (ctx, fields) => ({ ...fields, labels: ctx.body.labels }),
  render: (record, base) => ({ ...describedFields(record, base), labels: record.labels }),
  checkDelete: refuseDeleteWhileReferenced,
});
