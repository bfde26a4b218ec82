import type { z } from 'zod';
import { OAUTH_PROVIDERS } from '../../shared/api/kinds/auth-modules.ts';
import type { ROUTE_MODULES } from '../../shared/api/kinds/https-edge-routes.ts';
import type { TLS_EDGE_MODULES } from '../../shared/api/kinds/tls-edges.ts';
import type { Account } from '../store/account.ts';
import type {
  BackendModule,
  IPRestrictionModule,
  MutualTLSModule,
  RouteModules,
  TLSTerminationModule,
} from '../store/records.ts';
import { requireReference, requireReferences } from './references.ts';
import { refOf } from './render.ts';

/** The minimum TLS version chosen when a termination at the edge leaves it open. */
const DEFAULT_MIN_TLS_VERSION = '1.2';

type Written<T extends { readonly write: z.ZodType }> = z.output<T['write']>;
type AnyModuleWrite =
  | Written<(typeof TLS_EDGE_MODULES)[keyof typeof TLS_EDGE_MODULES]>
  | Written<(typeof ROUTE_MODULES)[keyof typeof ROUTE_MODULES]>;

/**
 * A module's validated write form as the store keeps it: references checked against the account
 * (223, naming `field`), and what the server chooses filled in.
 */
export function storeModule(
  name: string,
  written: AnyModuleWrite,
  account: Account,
  field: string,
): object {
  switch (name) {
    case 'backend': {
      const module = written as BackendModule;
      requireReference(account, module.backend_id, `${field}backend_id`);
      return module;
    }
    case 'ip_restriction': {
      const module = written as IPRestrictionModule;
      requireReferences(account, module.ip_policy_ids, `${field}ip_policy_ids`);
      return module;
    }
    case 'mutual_tls': {
      const module = written as MutualTLSModule;
      requireReferences(
        account,
        module.certificate_authority_ids,
        `${field}certificate_authority_ids`,
      );
      return module;
    }
    case 'tls_termination': {
      const module = written as {
        enabled: boolean;
        terminate_at?: string;
        min_version?: string | null;
      };
      const terminateAt = module.terminate_at ?? 'edge';
      return {
        enabled: module.enabled,
        terminate_at: terminateAt,
        min_version:
          terminateAt === 'upstream' ? null : (module.min_version ?? DEFAULT_MIN_TLS_VERSION),
      } satisfies Record<keyof TLSTerminationModule, unknown>;
    }
    case 'webhook_verification': {
      const module = written as { enabled: boolean; provider: string; secret?: string };
      return { enabled: module.enabled, provider: module.provider, secret: module.secret ?? '' };
    }
    default:
      return written;
  }
}

/** Where a route sits, for the SAML module's service-side URLs. */
export type RouteSite = { readonly routeId: string; readonly edgeHost: string };

/**
 * A stored module as representations show it: ids as Refs (a deleted IP policy keeps its Ref, so
 * the caller sees which policy the module still names while it acts as an empty one), OAuth with
 * all eight provider members, SAML with the URLs the service derives.
 */
export function renderModule(
  name: string,
  stored: object | null,
  base: string,
  site?: RouteSite,
): object | null {
  if (stored === null) return null;
  switch (name) {
    case 'backend': {
      const { enabled, backend_id } = stored as BackendModule;
      return { enabled, backend: refOf(base, backend_id) };
    }
    case 'ip_restriction': {
      const { enabled, ip_policy_ids } = stored as IPRestrictionModule;
      return { enabled, ip_policies: ip_policy_ids.map((id) => refOf(base, id)) };
    }
    case 'mutual_tls': {
      const { enabled, certificate_authority_ids } = stored as MutualTLSModule;
      return {
        enabled,
        certificate_authorities: certificate_authority_ids.map((id) => refOf(base, id)),
      };
    }
    case 'oauth': {
      const oauth = stored as NonNullable<RouteModules['oauth']>;
      const provider: Record<string, unknown> = {};
      for (const member of OAUTH_PROVIDERS)
        provider[member] = (oauth.provider as Record<string, unknown>)[member] ?? null;
      return { ...oauth, provider };
    }
    case 'saml': {
      const origin = `https://${site?.edgeHost ?? 'edge.invalid'}`;
      const prefix = `${origin}/saml/${site?.routeId ?? ''}`;
      return {
        ...stored,
        entity_id: `${prefix}/metadata`,
        assertion_consumer_service_url: `${prefix}/acs`,
        single_logout_url: `${prefix}/slo`,
        metadata_url: `${prefix}/metadata`,
      };
    }
    default:
      return stored;
  }
}

/** An HTTPS edge's termination reads without terminate_at: it always terminates at the edge. */
export function renderAtEdgeTermination(stored: TLSTerminationModule | null): object | null {
  return stored && { enabled: stored.enabled, min_version: stored.min_version };
}
