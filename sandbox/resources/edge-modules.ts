import { SandboxApiError } from '../http/sandbox-api-error.ts';
import type { Ctx, Handler } from './context.ts';
import { storeModule } from './modules.ts';

type AnyModules = Readonly<Record<string, object | null>>;

/** How the module endpoints of one parent kind (TLS edge, HTTPS edge, route) reach their parent. */
export type ModuleHost<P extends object> = {
  /** The catalog's group: `tlsEdges` for `tlsEdges.backend.replace` and the rest. */
  readonly group: string;
  readonly modules: readonly string[];
  /** The parent the path names (301 when it does not exist). */
  readonly load: (ctx: Ctx) => P;
  readonly save: (ctx: Ctx, next: P) => void;
  /** Throws when the parent with this module changed breaks a rule across modules. */
  readonly check: (merged: P) => void;
  readonly render: (ctx: Ctx, parent: P, module: string, stored: object | null) => object | null;
};

function moduleNotConfigured(module: string): SandboxApiError {
  return new SandboxApiError('moduleNotConfigured', `the ${module} module is not configured`);
}

/**
 * PUT, GET and DELETE of every module of a parent. PUT replaces the whole module; GET of a module
 * that is not set is 307; DELETE of one that is not set succeeds (the module is absent either way).
 */
export function moduleHandlers<P extends object>(host: ModuleHost<P>): Record<string, Handler> {
  const handlers: Record<string, Handler> = {};
  for (const module of host.modules) {
    const name = `${host.group}.${module}`;
    handlers[`${name}.replace`] = (ctx: Ctx) => {
      const parent = host.load(ctx);
      const stored = storeModule(
        module,
        ctx.body as Parameters<typeof storeModule>[1],
        ctx.account,
        '',
      );
      const merged = { ...parent, [module]: stored };
      host.check(merged);
      host.save(ctx, merged);
      return host.render(ctx, merged, module, stored);
    };
    handlers[`${name}.get`] = (ctx: Ctx) => {
      const parent = host.load(ctx);
      const stored = (parent as AnyModules)[module] ?? null;
      if (stored === null) throw moduleNotConfigured(module);
      return host.render(ctx, parent, module, stored);
    };
    handlers[`${name}.delete`] = (ctx: Ctx) => {
      const parent = host.load(ctx);
      if ((parent as AnyModules)[module] !== null) host.save(ctx, { ...parent, [module]: null });
      return undefined;
    };
  }
  return handlers;
}

/** The modules a create or update body names, stored; `field` prefixes come from the module names. */
export function storeNamedModules(
  body: Readonly<Record<string, unknown>>,
  modules: readonly string[],
  ctx: Ctx,
): Record<string, object> {
  const out: Record<string, object> = {};
  for (const module of modules) {
    const written = body[module];
    if (written !== undefined)
      out[module] = storeModule(
        module,
        written as Parameters<typeof storeModule>[1],
        ctx.account,
        `${module}.`,
      );
  }
  return out;
}
