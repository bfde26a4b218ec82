import { describe, expect, it } from 'vitest';
import { hashSecrets, secretsChangedIn, withoutHashes } from '../../../../core/drift/secrets.ts';
import { driftSummary } from '../../../../core/drift/words.ts';
import type { PlanStep } from '../../../../core/snapshot/plan/plan.ts';
import type { SnapshotDocument } from '../../../../shared/app/snapshot-document.ts';
import { snapshotDocument } from '../../../support/snapshot-documents.ts';

const update = (name: string, from: unknown, to: unknown, path = 'oidc'): PlanStep => ({
  action: 'update',
  kind: 'httpsEdgeRoute',
  name,
  id: `rt_${name}`,
  changes: [{ path, from, to }],
  patch: {},
  modules: [],
});

describe('what a drift is called', () => {
  it('counts each kind and action in words, one and several', () => {
    const steps: PlanStep[] = [
      {
        action: 'update',
        kind: 'httpsEdge',
        name: 'www',
        id: 'e',
        changes: [],
        patch: {},
        modules: [],
      },
      { action: 'create', kind: 'ipPolicy', name: 'a', fields: {} },
      { action: 'create', kind: 'ipPolicy', name: 'b', fields: {} },
      { action: 'unchanged', kind: 'credential', name: 'c', id: 'c' },
    ];
    expect(driftSummary(steps)).toBe('1 edge updated, 2 IP policies created');
  });

  it('makes the plural of a name ending in -ss, -y or neither', () => {
    const twice = (kind: PlanStep['kind']): PlanStep[] =>
      ['a', 'b'].map((name) => ({ action: 'delete', kind, name, id: name }));
    expect(
      driftSummary([
        ...twice('agentIngress'),
        ...twice('certificateAuthority'),
        ...twice('tlsEdge'),
      ]),
    ).toBe('2 agent ingresses deleted, 2 certificate authorities deleted, 2 TLS edges deleted');
  });

  it('names a resource whose kept secret is not the live one, and only those', () => {
    const oidc = (secret: string, issuer = 'https://idp') => ({ issuer, client_secret: secret });
    expect(
      secretsChangedIn([
        update('login', oidc('hmac-sha256:aa'), oidc('hmac-sha256:bb')),
        update('sso', oidc('hmac-sha256:aa'), oidc('hmac-sha256:aa', 'https://other')),
        update('api', { enabled: false }, { enabled: true }, 'compression'),
      ]),
    ).toEqual(['login']);
  });
});

describe('secrets in a baseline', () => {
  const document = (fields: Record<string, unknown>): SnapshotDocument =>
    snapshotDocument(
      { httpsEdgeRoute: [{ name: 'www/login', id: 'rt_1', edge: 'www', fields }] },
      { containsSecrets: true },
    );
  const fields = { oidc: { client_id: 'burrow', client_secret: 's3cret' } };

  it('are keyed hashes: the same secret and key hash alike, another key otherwise', () => {
    const key = Buffer.alloc(32, 1);
    const hashed = hashSecrets(document(fields), key);
    const text = JSON.stringify(hashed);
    expect(text).not.toContain('s3cret');
    expect(hashed.containsSecrets).toBe(false);
    expect(JSON.stringify(hashSecrets(document(fields), key))).toBe(text);
    expect(JSON.stringify(hashSecrets(document(fields), Buffer.alloc(32, 2)))).not.toBe(text);
  });

  it('are left out of the baseline put back', () => {
    const back = withoutHashes(hashSecrets(document(fields), Buffer.alloc(32, 1)));
    expect(back.resources.httpsEdgeRoute[0]?.fields).toEqual({ oidc: { client_id: 'burrow' } });
  });
});
