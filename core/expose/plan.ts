import {
  OAUTH_PROVIDER_NAMES,
  OAUTH_REQUEST_PROVIDERS,
} from '../../shared/api/kinds/auth-modules.ts';
import { parseHostport } from '../../shared/api/values/hosts.ts';
import type {
  CheckedExposeRequest,
  ExposePlan,
  ExposeProtection,
  ExposeStep,
} from '../../shared/app/ipc/expose.ts';
import type { ApiClient } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { AppError } from '../errors.ts';
import { fittingCredential } from './credential.ts';
import { exposeBodies, ROUTE_MATCH, type ExposeBodies } from './request.ts';

/** What of the API the flow reads and writes. */
export type ExposeApi = Pick<
  ApiClient,
  'tunnelGroupBackends' | 'httpsEdges' | 'httpsEdgeRoutes' | 'credentials' | 'ipPolicies'
>;

/** A plan with the bodies it stands for, so a run does what was shown. */
export type PlannedExpose = ExposePlan & { readonly bodies: ExposeBodies };

const quoted = (name: string) => `'${name}'`;

/** The service's address: https, with the port only when it is not 443. */
function serviceUrl(hostport: string): string {
  const parsed = parseHostport(hostport);
  const host = parsed?.host ?? hostport;
  return parsed?.port === 443 ? `https://${host}` : `https://${host}:${parsed?.port ?? ''}`;
}

/**
 * What Create will do, read against the account: the IP policies by name, and whether a
 * credential already fits the labels. The request is refused at its field before anything.
 */
export async function planExpose(
  api: ExposeApi,
  request: CheckedExposeRequest,
): Promise<PlannedExpose> {
  const bodies = exposeBodies(request);
  const name = bodies.backend.description ?? '';
  const labels = bodies.binds.join(', ');
  const [protection, credentials] = await Promise.all([
    protectionWords(api, request.protection),
    api.credentials.listAll(),
  ]);
  const fitting = fittingCredential(credentials, bodies.binds);
  const hostport = bodies.edge.hostports?.[0] ?? '';
  const steps: ExposeStep[] = [
    {
      kind: 'backend',
      words: `Create a tunnel group backend ${quoted(name)} (labels ${labels})`,
    },
    { kind: 'edge', words: `Create an HTTPS edge on ${hostport}` },
    {
      kind: 'route',
      words: `Create its route ${ROUTE_MATCH} to that backend${protection ? `, with ${protection}` : ''}`,
    },
  ];
  if (!fitting)
    steps.push({
      kind: 'credential',
      words: `Create a credential for the agent, allowed to bind ${labels} only`,
    });
  return {
    steps,
    credential: fitting
      ? { kind: 'existing', id: fitting.id, name: fitting.description || fitting.id }
      : { kind: 'create' },
    url: serviceUrl(hostport),
    binds: bodies.binds,
    bodies,
  };
}

async function protectionWords(api: ExposeApi, protection: ExposeProtection) {
  const words: string[] = [];
  const restriction = protection.ip_restriction as { ip_policy_ids?: string[] } | undefined;
  if (restriction?.ip_policy_ids) {
    const names = await Promise.all(restriction.ip_policy_ids.map((id) => policyName(api, id)));
    words.push(
      `IP restriction by ${names.length === 1 ? 'policy' : 'policies'} ${names.join(', ')}`,
    );
  }
  const oidc = protection.oidc as { issuer?: string } | undefined;
  if (oidc) words.push(`sign-in through OpenID Connect at ${oidc.issuer ?? ''}`);
  const oauth = protection.oauth as { provider?: Record<string, unknown> } | undefined;
  const provider = OAUTH_REQUEST_PROVIDERS.find((p) => oauth?.provider?.[p]);
  if (provider) words.push(`sign-in through ${OAUTH_PROVIDER_NAMES[provider]}`);
  return words.join(' and ');
}

async function policyName(api: ExposeApi, id: string): Promise<string> {
  try {
    const policy = await api.ipPolicies.get(id);
    return quoted(policy.description || policy.id);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const field = 'protection.ip_restriction.ip_policy_ids';
    throw new AppError(error.errorCode ?? 'IP_POLICY', `${field}: ${error.msg}`, field);
  }
}
