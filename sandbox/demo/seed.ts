import {
  endpoint,
  type EndpointName,
  type PathParamsOf,
} from '../../shared/api/catalog/endpoints.ts';
import { validateBody } from '../../shared/api/errors/validate.ts';
import type { Ctx, Services } from '../resources/context.ts';
import { handlerTable } from '../resources/index.ts';
import type { Account } from '../store/account.ts';
import { newSecret } from '../store/ids.ts';
import { STORED_KINDS } from '../store/records.ts';
import { sha256Hex } from '../store/store.ts';

/** Marks the credential the demo agents use, so that a restart finds it instead of adding one. */
const DEMO_CREDENTIAL_METADATA = '{"burrow":"demo-agents"}';
export const DEMO_DOMAIN = 'demo.burrow.test';

type Created = { readonly id: string; readonly token?: string };

/**
 * Creates resources the way the API does (the same handlers, bodies validated by the same
 * schemas) as the account's first admin, without HTTP: no rate limit spent, no operation logged.
 */
function apiOf(services: Services, account: Account) {
  const handlers = handlerTable();
  const user = [...account.users.values()].find((u) => u.admin) ?? [...account.users.values()][0];
  if (!user) throw new Error(`demo: account "${account.name}" has no user to act as`);
  return async <N extends EndpointName>(
    name: N,
    body: unknown,
    params?: PathParamsOf<N>,
  ): Promise<Created> => {
    const op = endpoint(name);
    const checked = op.body ? validateBody(op.body, body) : { ok: true as const, value: body };
    if (!checked.ok) throw new Error(`demo: ${name}: ${checked.error.msg}`);
    const ctx: Ctx = {
      account,
      user,
      base: '',
      params: (params ?? {}) as Readonly<Record<string, string>>,
      query: { limit: 100 },
      body: checked.value,
      services,
    };
    return (await services.store.write(() => handlers[name](ctx))) as Created;
  };
}

function isEmpty(account: Account): boolean {
  return STORED_KINDS.every((kind) => account.collections[kind].size === 0);
}

/** A fresh token for the demo credential: only its hash was kept, so a restart needs a new one. */
async function rotateToken(
  services: Services,
  account: Account,
  credentialId: string,
): Promise<string> {
  const credentials = account.collections.credential;
  const record = credentials.get(credentialId);
  if (!record) throw new Error(`demo: credential ${credentialId} vanished`);
  const token = newSecret();
  await services.store.write(() =>
    credentials.replace({ ...record, token_hash: sha256Hex(token) }),
  );
  return token;
}

/**
 * Seeds the first account for a first launch: an IP policy, an HTTP response backend, a TLS
 * edge and an HTTPS edge (with a route) using it, an SSH CA and the demo agents' credential —
 * only when the account is empty, so that a sandbox restarted on its data file gains nothing
 * twice. The demo credential is found again by its metadata; its token is rotated (a token is
 * shown once and stored only as a hash). Returns the token for the demo agents.
 */
export async function seedDemo(services: Services): Promise<string> {
  const account = services.store.accounts.values().next().value;
  if (!account) throw new Error('demo: the sandbox has no account');
  const api = apiOf(services, account);
  const existing = [...account.collections.credential.values()].find(
    (c) => c.metadata === DEMO_CREDENTIAL_METADATA,
  );
  const empty = isEmpty(account);
  let token: string;
  if (existing) token = await rotateToken(services, account, existing.id);
  else {
    const credential = await api('credentials.create', {
      description: 'Demo agents of the local sandbox',
      metadata: DEMO_CREDENTIAL_METADATA,
      acl: [`bind:*.${DEMO_DOMAIN}`],
    });
    if (credential.token === undefined) throw new Error('demo: credential created without token');
    token = credential.token;
  }
  if (empty) {
    const policy = await api('ipPolicies.create', { description: 'Office network' });
    const backend = await api('httpResponseBackends.create', {
      description: 'Hello page',
      body: 'Hello from the Burrow sandbox',
      headers: { 'content-type': 'text/plain' },
      status_code: 200,
    });
    await api('tlsEdges.create', {
      description: 'Demo TLS edge',
      hostports: [`tls.${DEMO_DOMAIN}:443`],
      backend: { backend_id: backend.id },
      ip_restriction: { ip_policy_ids: [policy.id] },
    });
    const https = await api('httpsEdges.create', {
      description: 'Demo HTTPS edge',
      hostports: [`app.${DEMO_DOMAIN}:443`],
    });
    await api(
      'httpsEdgeRoutes.create',
      {
        description: 'Everything',
        match_type: 'path_prefix',
        match: '/',
        backend: { backend_id: backend.id },
      },
      { edge_id: https.id },
    );
    await api('sshCertificateAuthorities.create', { description: 'Demo SSH CA' });
  }
  return token;
}
