import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../core/api/client.ts';
import { applyPlan } from '../../../../core/snapshot/apply/apply.ts';
import { exportSnapshot, serializeSnapshot } from '../../../../core/snapshot/export/export.ts';
import { changesOf, planSnapshot } from '../../../../core/snapshot/plan/plan.ts';
import { parseSnapshot } from '../../../../shared/app/snapshot-document.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';
import { startAccount, type Sandbox } from '../api/support.ts';
import { policyWithRules } from './seed.ts';

/*
 * IP policy rules in snapshots: a rule refers to its policy by name, is created after it in
 * another account, and can change its block and words but not its policy or action.
 */

const cleanup = cleanupAfterAll();

const WHO = {
  about: { owner: 'profile:test', target: 'Test', source: 'test.json' },
  holder: 'a test',
};

const exportOf = ({ sandbox, api }: { sandbox: Sandbox; api: ApiClient }) =>
  exportSnapshot(api, { apiUrl: sandbox.url, withSecrets: true, now: () => new Date(0) });

async function apply(api: ApiClient, plan: ReturnType<typeof planSnapshot>) {
  const journalDir = await mkdtemp(join(tmpdir(), 'burrow-ipr-apply-'));
  cleanup.push(() => rm(journalDir, { recursive: true, force: true }));
  return applyPlan(api, plan, { ...WHO, journalDir });
}

/** An account with two policies, "office" (two rules) and "lab" (one). */
async function seeded(key: string) {
  const account = await startAccount(key, cleanup);
  const { api } = account;
  await policyWithRules(api, { description: 'office' }, [
    { cidr: '10.0.0.0/8', action: 'allow' },
    { cidr: '10.9.0.0/16', action: 'deny', description: 'guests' },
  ]);
  await policyWithRules(api, { description: 'lab' }, [{ cidr: '2001:db8::/32', action: 'allow' }]);
  return account;
}

/** Each rule of the account as "policy: action cidr". */
async function rulesOf(api: ApiClient): Promise<string[]> {
  const policies = new Map((await api.ipPolicies.listAll()).map((p) => [p.id, p.description]));
  return (await api.ipPolicyRules.listAll())
    .map((r) => `${policies.get(r.ip_policy.id) ?? r.ip_policy.id}: ${r.action} ${r.cidr}`)
    .sort();
}

describe('IP policy rules in a snapshot', () => {
  it('are created after their policies in another account, each under its own', async () => {
    const source = await seeded('ipr-source');
    const target = await startAccount('ipr-target', cleanup);
    const document = await exportOf(source);
    const plan = planSnapshot(document, await exportOf(target));
    expect(plan.blockers).toEqual([]);
    // Policies first: a rule's policy must exist when the rule is created.
    expect(changesOf(plan).map((s) => `${s.action} ${s.name}`)).toEqual([
      'create ipPolicy/lab',
      'create ipPolicy/office',
      'create ipPolicyRule/lab/2001-db8-32',
      'create ipPolicyRule/office/10.0.0.0-8',
      'create ipPolicyRule/office/guests',
    ]);
    await apply(target.api, plan);
    expect(await rulesOf(target.api)).toEqual(await rulesOf(source.api));
    expect(await rulesOf(target.api)).toEqual([
      'lab: allow 2001:db8::/32',
      'office: allow 10.0.0.0/8',
      'office: deny 10.9.0.0/16',
    ]);
    expect(changesOf(planSnapshot(document, await exportOf(target)))).toEqual([]);
  });

  it('change their block and description in place; a new action or policy blocks the plan', async () => {
    const account = await seeded('ipr-changes');
    const target = await exportOf(account);
    const document = structuredClone(target);
    const [lab, allow, guests] = document.resources.ipPolicyRule;
    if (!lab || !allow || !guests) throw new Error('three rules');
    lab.fields['cidr'] = '2001:db8:1::/48';
    guests.fields['description'] = 'visitors';
    let plan = planSnapshot(document, target);
    expect(plan.blockers).toEqual([]);
    expect(changesOf(plan)).toMatchObject([
      { action: 'update', name: lab.name, patch: { cidr: '2001:db8:1::/48' } },
      { action: 'update', name: guests.name, patch: { description: 'visitors' } },
    ]);
    await apply(account.api, plan);
    expect(await rulesOf(account.api)).toContain('lab: allow 2001:db8:1::/48');

    allow.fields['action'] = 'deny';
    allow.fields['ip_policy_id'] = 'ipPolicy/lab';
    plan = planSnapshot(document, await exportOf(account));
    expect(plan.blockers).toEqual([
      { name: allow.name, field: 'action', reason: 'cannot be changed once created' },
      { name: allow.name, field: 'ip_policy_id', reason: 'cannot be changed once created' },
    ]);
  });

  it('name a bad block, or a policy missing from the file, before any call', async () => {
    const account = await seeded('ipr-invalid');
    const document = structuredClone(await exportOf(account));
    const [, , guests] = document.resources.ipPolicyRule;
    if (!guests) throw new Error('three rules');
    guests.fields['cidr'] = '10.9.0.0/40';
    const plan = planSnapshot(document, await exportOf(account));
    expect(plan.blockers).toEqual([
      {
        name: guests.name,
        field: 'cidr',
        reason: 'must end with a prefix length from 0 to 32 for an IPv4 address',
      },
    ]);
    const json = JSON.parse(serializeSnapshot(document));
    json.resources.ipPolicyRule[2].fields.ip_policy_id = 'ipPolicy/gone';
    expect(() => parseSnapshot(json)).toThrow(
      'resources.ipPolicyRule.2.fields.ip_policy_id names "ipPolicy/gone"',
    );
  });

  it('go before their policy when pruned, and the apply finishes', async () => {
    const account = await seeded('ipr-prune');
    const document = structuredClone(await exportOf(account));
    document.resources.ipPolicy = document.resources.ipPolicy.filter(
      (p) => p.name !== 'ipPolicy/office',
    );
    document.resources.ipPolicyRule = document.resources.ipPolicyRule.filter(
      (r) => r.fields['ip_policy_id'] !== 'ipPolicy/office',
    );
    const plan = planSnapshot(document, await exportOf(account), { prune: true });
    expect(changesOf(plan).map((s) => `${s.action} ${s.name}`)).toEqual([
      'delete ipPolicyRule/office/guests',
      'delete ipPolicyRule/office/10.0.0.0-8',
      'delete ipPolicy/office',
    ]);
    expect(await apply(account.api, plan)).toMatchObject({ deleted: 3 });
    expect(await rulesOf(account.api)).toEqual(['lab: allow 2001:db8::/32']);
  });

  it('are left alone, even pruning, by a file written before snapshots held them', async () => {
    const account = await seeded('ipr-old-file');
    const current = await exportOf(account);
    const old = JSON.parse(serializeSnapshot(current));
    delete old.resources.ipPolicyRule;
    const document = parseSnapshot(old);
    expect(document.resources.ipPolicyRule).toEqual([]);
    expect(document.kindsLeftOut).toEqual(['ipPolicyRule']);
    // Read again, as the window and a baseline keep it, it still says so.
    expect(parseSnapshot(JSON.parse(serializeSnapshot(document)))).toEqual(document);
    const plan = planSnapshot(document, current, { prune: true });
    expect(changesOf(plan)).toEqual([]);
    expect(plan.untouched).toEqual(current.resources.ipPolicyRule.map((r) => r.name).sort());
    // A file of today that holds no rules does prune them.
    const { kindsLeftOut: _, ...today_ } = document;
    const today = planSnapshot(today_, current, { prune: true });
    expect(changesOf(today).map((s) => s.action)).toEqual(['delete', 'delete', 'delete']);
  });
});
