import { createPrivateKey } from 'node:crypto';
import { ENDPOINTS } from '../../shared/api/catalog/endpoints.ts';
import { Account } from '../store/account.ts';
import type { RecordOf, StoredKind } from '../store/records.ts';
import type { RecordCheck } from '../store/store.ts';
import { abuseReportHandlers } from './abuse-reports.ts';
import { agentIngressHandlers } from './agent-ingresses.ts';
import {
  failoverBackendHandlers,
  httpResponseBackendHandlers,
  tunnelGroupBackendHandlers,
} from './backends.ts';
import { certificateAuthorityHandlers } from './certificate-authorities.ts';
import type { Ctx, Handler, HandlerTable, Services } from './context.ts';
import { credentialHandlers, sshCredentialHandlers } from './credentials.ts';
import { httpsEdgeHandlers } from './https-edges.ts';
import { ipPolicyHandlers } from './ip-policies.ts';
import { ipPolicyRuleHandlers } from './ip-policy-rules.ts';
import {
  sshCertificateAuthorityHandlers,
  sshHostCertificateHandlers,
  sshUserCertificateHandlers,
} from './ssh.ts';
import { tlsEdgeHandlers } from './tls-edges.ts';
import { tunnelSessionHandlers } from './tunnel-sessions.ts';
import { GET_ENDPOINT_BY_KIND } from './render.ts';

const ALL: Readonly<Record<string, Handler>> = {
  ...ipPolicyHandlers,
  ...ipPolicyRuleHandlers,
  ...sshCertificateAuthorityHandlers,
  ...sshUserCertificateHandlers,
  ...sshHostCertificateHandlers,
  ...sshCredentialHandlers,
  ...credentialHandlers,
  ...agentIngressHandlers,
  ...failoverBackendHandlers,
  ...httpResponseBackendHandlers,
  ...tunnelGroupBackendHandlers,
  ...certificateAuthorityHandlers,
  ...tlsEdgeHandlers,
  ...httpsEdgeHandlers,
  ...tunnelSessionHandlers,
  ...abuseReportHandlers,
};

/** One handler per catalog endpoint; a gap is a startup error, not a 404 at run time. */
export function handlerTable(): HandlerTable {
  const missing = ENDPOINTS.filter((e) => !ALL[e.name]).map((e) => e.name);
  if (missing.length > 0) throw new Error(`no handler for ${missing.join(', ')}`);
  return ALL as HandlerTable;
}

const CHECK_BASE = 'http://check.invalid';

/**
 * Whether a record read from the data file is one the server could have written: it must render
 * through its get endpoint into the catalog's representation, and hold its private fields.
 */
export function recordCheck(services: Services): RecordCheck {
  return (kind: StoredKind, record: unknown) => {
    const get = GET_ENDPOINT_BY_KIND.get(kind);
    if (!get?.response) return `no representation for ${kind}`;
    const typed = record as RecordOf[StoredKind] & Record<string, unknown>;
    const account = new Account('check', false, new Map(), new Set());
    const params: Record<string, string> = { id: typed.id };
    try {
      if (kind === 'sshCertificateAuthority') createPrivateKey(String(typed['private_key']));
      if (kind === 'credential' && !/^[0-9a-f]{64}$/.test(String(typed['token_hash'])))
        return 'token_hash is not a SHA-256 digest';
      (account.collections[kind] as unknown as { insert(r: unknown): void }).insert(record);
      if (kind === 'httpsEdgeRoute') {
        const edgeId = String(typed['edge_id']);
        params['edge_id'] = edgeId;
        account.collections.httpsEdge.insert({
          id: edgeId,
          created_at: new Date(0).toISOString(),
          hostports: [],
          mutual_tls: null,
          tls_termination: null,
          route_ids: [typed.id],
        });
      }
      const ctx: Ctx = {
        account,
        user: { id: 'usr_check', admin: true },
        base: CHECK_BASE,
        params,
        query: { limit: 1 },
        body: undefined,
        services,
      };
      const rendered = ALL[get.name]?.(ctx);
      const result = get.response.safeParse(rendered);
      if (!result.success) {
        const issue = result.error.issues[0];
        return `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`;
      }
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
}
