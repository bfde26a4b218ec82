import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import {
  exportSnapshot,
  serializeSnapshot,
  type ExportProgress,
} from '../../../../core/snapshot/export/export.ts';
import { changesOf, planSnapshot } from '../../../../core/snapshot/plan/plan.ts';
import {
  parseSnapshot,
  SNAPSHOT_KINDS,
  type SnapshotKind,
} from '../../../../shared/app/snapshot-document.ts';
import { seededAccountForFile } from './seed.ts';

const account = seededAccountForFile('snapshot-export');

const exportOf = (withSecrets = false) =>
  exportSnapshot(account.api, { apiUrl: account.sandbox.url, withSecrets, now: () => new Date(0) });

describe('export', () => {
  it('writes every kind, references as local names, and reads back through the schema', async () => {
    const document = await exportOf(true);
    expect(parseSnapshot(JSON.parse(serializeSnapshot(document)))).toEqual(document);
    for (const kind of SNAPSHOT_KINDS) expect(document.resources[kind], kind).not.toEqual([]);
    expect(document.notIncluded.join(' ')).toMatch(
      /tunnel sessions.*abuse reports.*SSH certificates.*token/,
    );
    const names = (kind: SnapshotKind) => document.resources[kind].map((e) => e.name);
    expect(names('ipPolicy')).toEqual(['ipPolicy/office', 'ipPolicy/office-2', 'ipPolicy/unused']);
    // A rule is named after its policy, then its description or block; it names its policy.
    expect(document.resources.ipPolicyRule).toEqual([
      {
        name: 'ipPolicyRule/office-2/lab-v6',
        id: expect.stringMatching(/^ipr_/),
        fields: {
          action: 'allow',
          cidr: '2001:db8::/32',
          description: 'lab v6',
          ip_policy_id: 'ipPolicy/office-2',
        },
      },
      {
        name: 'ipPolicyRule/office/10.0.0.0-8',
        id: expect.stringMatching(/^ipr_/),
        fields: { action: 'allow', cidr: '10.0.0.0/8', ip_policy_id: 'ipPolicy/office' },
      },
      {
        name: 'ipPolicyRule/office/10.9.0.0-16',
        id: expect.stringMatching(/^ipr_/),
        fields: { action: 'deny', cidr: '10.9.0.0/16', ip_policy_id: 'ipPolicy/office' },
      },
    ]);
    const [tls] = document.resources.tlsEdge;
    expect(tls?.fields).toMatchObject({
      backend: { backend_id: 'failoverBackend/outer' },
      ip_restriction: { ip_policy_ids: ['ipPolicy/office', 'ipPolicy/office-2'] },
      mutual_tls: { certificate_authority_ids: ['certificateAuthority/clients'] },
    });
    const outer = document.resources.failoverBackend.find(
      (e) => e.name === 'failoverBackend/outer',
    );
    expect(outer?.fields['backends']).toEqual([
      'failoverBackend/inner',
      'httpResponseBackend/maintenance',
    ]);
    expect(names('httpsEdgeRoute')).toEqual([
      'httpsEdgeRoute/www/api',
      'httpsEdgeRoute/www/login',
      'httpsEdgeRoute/www/sso',
    ]);
    expect(serializeSnapshot(document)).not.toMatch(/"token"|"owner_id"|entity_id|"twitch"/);
    expect(document.containsSecrets).toBe(true);
    expect(serializeSnapshot(document)).toMatch(/gh-s3cret[\s\S]*webhook-s3cret[\s\S]*oidc-s3cret/);
  });

  it('leaves the secrets out unless asked, and says which it did', async () => {
    const text = serializeSnapshot(await exportOf(false));
    expect(text).toContain('"containsSecrets": false');
    expect(text).not.toMatch(/s3cret|client_secret"|"secret": "[^"]/);
    expect(text).toContain('"client_id": "gh-id"');
  });

  it('names the field of a document that is no snapshot', async () => {
    const document = JSON.parse(serializeSnapshot(await exportOf()));
    document.resources.tlsEdge[0].fields.backend.backend_id = 'httpResponseBackend/gone';
    expect(() => parseSnapshot(document)).toThrow(
      'resources.tlsEdge.0.fields.backend.backend_id names "httpResponseBackend/gone"',
    );
    expect(() => parseSnapshot({ ...document, version: 2 })).toThrow(
      /^Not a Burrow snapshot: version/,
    );
  });

  it('reports its progress kind by kind, at background priority', async () => {
    const progress: ExportProgress[] = [];
    const priorities: unknown[] = [];
    const listAll = account.api.listAll as (
      name: string,
      o: { priority?: string },
    ) => Promise<unknown>;
    const spy = {
      listAll: (name: string, o: { priority?: string }) => {
        priorities.push(o.priority);
        return listAll(name, o);
      },
    } as unknown as ApiClient;
    await exportSnapshot(spy, { apiUrl: account.sandbox.url, onProgress: (p) => progress.push(p) });
    expect(new Set(priorities)).toEqual(new Set(['background']));
    expect(progress[0]).toEqual({ kind: 'ipPolicy', loaded: 0, kindsDone: 0, totalKinds: 12 });
    expect(progress).toContainEqual({ kind: 'ipPolicy', loaded: 3, kindsDone: 0, totalKinds: 12 });
    expect(progress).toContainEqual({
      kind: 'ipPolicyRule',
      loaded: 3,
      kindsDone: 1,
      totalKinds: 12,
    });
    expect(progress.at(-1)).toMatchObject({ kind: 'httpsEdge', loaded: 2, kindsDone: 11 });
  });

  it('is deterministic: two exports are byte-equal', async () => {
    expect(serializeSnapshot(await exportOf())).toBe(serializeSnapshot(await exportOf()));
  });
});

describe('plan', () => {
  it('of an account against its own export is empty, whichever of the two holds the secrets', async () => {
    for (const [mine, theirs] of [
      [true, true],
      [false, true],
      [true, false],
    ]) {
      const plan = planSnapshot(await exportOf(mine), await exportOf(theirs));
      expect(changesOf(plan)).toEqual([]);
      expect(plan.blockers).toEqual([]);
      expect(plan.untouched).toEqual([]);
    }
  });

  it('diffs field by field, deletes only with prune, and names a missing secret', async () => {
    const target = await exportOf(true);
    const document = structuredClone(await exportOf(false));
    const tls = document.resources.tlsEdge[0];
    if (!tls) throw new Error('no TLS edge');
    tls.fields['description'] = 'tls, renamed';
    tls.fields['backend'] = { backend_id: 'httpResponseBackend/maintenance', enabled: true };
    delete tls.fields['mutual_tls'];
    document.resources.ipPolicy = document.resources.ipPolicy.filter(
      (e) => e.name !== 'ipPolicy/unused',
    );
    const login = document.resources.httpsEdgeRoute.find((e) => e.name.endsWith('/login'));
    const oidc = login?.fields['oidc'] as Record<string, unknown>;
    oidc['scopes'] = ['openid', 'email'];
    const sso = structuredClone(login);
    if (!sso) throw new Error('no route');
    document.resources.httpsEdgeRoute.push({
      ...sso,
      name: 'httpsEdgeRoute/www/login2',
      id: 'edghtsrt_new',
    });

    const plan = planSnapshot(document, target);
    const summary = changesOf(plan).map((s) => `${s.action} ${s.name}`);
    expect(summary).toEqual([
      'update tlsEdge/tls',
      'update httpsEdgeRoute/www/login',
      'create httpsEdgeRoute/www/login2',
    ]);
    expect(changesOf(plan)[0]).toMatchObject({
      patch: { description: 'tls, renamed' },
      modules: [
        { module: 'backend', value: { backend_id: 'httpResponseBackend/maintenance' } },
        { module: 'mutual_tls', value: null },
      ],
      changes: [
        { path: 'backend', from: { backend_id: 'failoverBackend/outer', enabled: true } },
        { path: 'description', from: 'tls', to: 'tls, renamed' },
        { path: 'mutual_tls', to: null },
      ],
    });
    // The account's own secret completes the module it updates, for the same client of the same
    // issuer; the new route has none.
    expect(changesOf(plan)[1]).toMatchObject({
      modules: [
        { module: 'oidc', value: { scopes: ['openid', 'email'], client_secret: 'oidc-s3cret' } },
      ],
    });
    expect(plan.blockers).toEqual([
      {
        name: 'httpsEdgeRoute/www/login2',
        field: 'oidc.client_secret',
        reason: 'secret missing from the snapshot',
      },
    ]);
    expect(plan.untouched).toEqual(['ipPolicy/unused']);
    const pruned = planSnapshot(document, target, { prune: true });
    expect(changesOf(pruned).at(-1)).toMatchObject({ action: 'delete', name: 'ipPolicy/unused' });
  });
});
