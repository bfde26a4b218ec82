import { endpoint } from '../../shared/api/catalog/endpoints.ts';
import { TUNNEL_SESSION_COMMANDS } from '../../shared/api/kinds/tunnel-sessions.ts';
import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { TunnelSessionRecord } from '../store/sessions.ts';
import type { Ctx, Handler } from './context.ts';
import { notFound } from './crud.ts';
import { listReply, refOf, uriOf } from './render.ts';

function render(session: TunnelSessionRecord, base: string) {
  const { credential_id, ...fields } = session;
  return { ...fields, uri: uriOf(base, session.id), credential: refOf(base, credential_id) };
}

const list = endpoint('tunnelSessions.list');

/** Sessions are the SessionRegistry's: the API reads them and forwards commands to their agents. */
export const tunnelSessionHandlers: Record<string, Handler> = {
  'tunnelSessions.list': (ctx: Ctx) =>
    listReply(
      ctx.base,
      list.path,
      list.listKey,
      ctx.query,
      ctx.services.store.sessions.list(ctx.account.name, ctx.query.limit, ctx.query.before_id),
      (session) => render(session, ctx.base),
    ),
  'tunnelSessions.get': (ctx: Ctx) => {
    const id = ctx.params['id'] ?? '';
    const session = ctx.services.store.sessions.get(ctx.account.name, id);
    if (!session) throw notFound(id);
    return render(session, ctx.base);
  },
  ...Object.fromEntries(
    TUNNEL_SESSION_COMMANDS.map((command) => [
      `tunnelSessions.${command}`,
      async (ctx: Ctx) => {
        const id = ctx.params['id'] ?? '';
        const failure = await ctx.services.store.sessions.command(ctx.account.name, id, command);
        if (failure === 'notFound') throw notFound(id);
        if (failure) throw new SandboxApiError(failure);
        return undefined;
      },
    ]),
  ),
};
