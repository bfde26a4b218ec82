import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { profileOwner, type SnapshotAccount } from '../../../../core/snapshot/account.ts';
import { ApplyBlockedError } from '../../../../core/snapshot/apply/apply.ts';
import { SnapshotService } from '../../../../core/snapshot/service.ts';
import type { SnapshotDocument } from '../../../../shared/app/snapshot-document.ts';
import { startAccount } from '../api/support.ts';
import { seedAccount } from './seed.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

/*
 * A secret the snapshot leaves out is taken from the account only for the party it was made
 * for: a new OIDC issuer, OAuth client or webhook provider needs its own, from the snapshot.
 */

const cleanup = cleanupAfterAll();
let account: SnapshotAccount;
let service: SnapshotService;
let plain: SnapshotDocument;

beforeAll(async () => {
  const { sandbox, api } = await startAccount('secrets-owner', cleanup);
  await seedAccount(api);
  account = { client: api, apiUrl: sandbox.url, label: 'Prod', owner: profileOwner('prf_p') };
  const dir = await mkdtemp(join(tmpdir(), 'burrow-secrets-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  service = new SnapshotService({ dataDir: dir, holder: 'a test' });
  plain = await service.read(account, { withSecrets: false });
});

type Json = Record<string, unknown>;

/** The snapshot without secrets, with `edit` made to the fields of the route named `…/suffix`. */
function edited(suffix: string, edit: (fields: Json) => void): SnapshotDocument {
  const document = structuredClone(plain);
  const route = document.resources.httpsEdgeRoute.find((r) => r.name.endsWith(suffix));
  if (route === undefined) throw new Error(`no route ${suffix}`);
  edit(route.fields);
  return document;
}

const plan = (document: SnapshotDocument) =>
  service.plan(document, account, { prune: false, source: 'edited.json' });

describe('secrets kept from the account', () => {
  it.each([
    [
      'an OIDC issuer',
      '/login',
      (f: Json) => ((f['oidc'] as Json)['issuer'] = 'https://other-idp.example.com'),
      'oidc.client_secret',
      'needs the secret for the new issuer',
    ],
    [
      'an OAuth client',
      '/api',
      (f: Json) =>
        ((((f['oauth'] as Json)['provider'] as Json)['github'] as Json)['client_id'] = 'x'),
      'oauth.provider.github.client_secret',
      'needs the secret for the new client_id',
    ],
    [
      'an OAuth provider',
      '/api',
      (f: Json) => {
        (f['oauth'] as Json)['provider'] = { gitlab: { client_id: 'gl-id' } };
      },
      'oauth.provider.gitlab.client_secret',
      'needs the secret for the new provider',
    ],
    [
      'a webhook provider',
      '/api',
      (f: Json) => ((f['webhook_verification'] as Json)['provider'] = 'gitlab'),
      'webhook_verification.secret',
      'needs the secret for the new provider',
    ],
  ])(
    '%s changed: the plan says so, and apply stops before any call',
    async (_, suffix, edit, field, reason) => {
      const planned = await plan(edited(suffix, edit));
      expect(planned.plan.blockers).toEqual([expect.objectContaining({ field, reason })]);
      let calls = 0;
      const counting = {
        ...account,
        client: new Proxy(account.client, {
          get: (client, key) => {
            if (key === 'call') calls++;
            return Reflect.get(client, key) as unknown;
          },
        }),
      };
      await expect(service.apply(planned, counting, {})).rejects.toBeInstanceOf(ApplyBlockedError);
      expect(calls).toBe(0);
    },
  );

  it('the same issuer keeps the account secret; a new one with its own secret applies', async () => {
    const same = await plan(edited('/login', (f) => ((f['oidc'] as Json)['scopes'] = ['openid'])));
    expect(same.plan.blockers).toEqual([]);
    const update = same.plan.steps.find((s) => s.action === 'update');
    expect(update).toMatchObject({ modules: [{ value: { client_secret: 'oidc-s3cret' } }] });

    const moved = edited('/login', (f) => {
      f['oidc'] = {
        ...(f['oidc'] as Json),
        issuer: 'https://new.example.com',
        client_secret: 'n3w',
      };
    });
    const planned = await plan(moved);
    expect(planned.plan.blockers).toEqual([]);
    expect(await service.apply(planned, account, {})).toMatchObject({ updated: 1 });
    const after = await service.read(account, { withSecrets: true });
    const login = after.resources.httpsEdgeRoute.find((r) => r.name.endsWith('/login'));
    expect(login?.fields['oidc']).toMatchObject({
      issuer: 'https://new.example.com',
      client_secret: 'n3w',
    });
  });
});
