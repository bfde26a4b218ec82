import { describe, expect, it } from 'vitest';
import { compare } from '../../../../core/drift/compare.ts';
import { changesOf, planSnapshot } from '../../../../core/snapshot/plan/plan.ts';
import { planView } from '../../../../core/snapshot/plan/view.ts';
import type { SnapshotDocument, SnapshotEntry } from '../../../../shared/app/snapshot-document.ts';
import { noResources, snapshotDocument } from '../../../support/snapshot-documents.ts';

/*
 * The comparison plans only the resources that differ, the event loop served between slices of
 * the rest: what it finds is what the plan of the whole documents says.
 */

type Resources = SnapshotDocument['resources'];

/** An account of `policies` IP policies and 20 failover backends (each naming the next), edges and routes. */
function account(policies: number): SnapshotDocument {
  const resources = noResources();
  const entry = (name: string, fields: Record<string, unknown>, edge?: string): SnapshotEntry => ({
    name,
    id: `id_${name}`,
    fields,
    ...(edge !== undefined && { edge }),
  });
  for (let i = 0; i < policies; i += 1)
    resources.ipPolicy.push(entry(`ipPolicy/p-${i}`, { description: `p ${i}` }));
  for (let i = 0; i < 20; i += 1) {
    const next = i < 19 ? [`failoverBackend/f-${i + 1}`] : [];
    resources.failoverBackend.push(entry(`failoverBackend/f-${i}`, { backends: next }));
    resources.httpsEdge.push(entry(`httpsEdge/w-${i}`, { hostports: [`w-${i}.example:443`] }));
    resources.httpsEdgeRoute.push(
      entry(
        `httpsEdgeRoute/w-${i}/root`,
        {
          match: '/',
          match_type: 'path_prefix',
          backend: { backend_id: `failoverBackend/f-${i}` },
        },
        `httpsEdge/w-${i}`,
      ),
    );
  }
  return snapshotDocument(resources);
}

function changed(edit: (resources: Resources) => void): SnapshotDocument {
  const live = structuredClone(account(300));
  edit(live.resources);
  return live;
}

describe('a comparison', () => {
  const baseline = account(300);

  it.each([
    ['a field', (r: Resources) => (r.ipPolicy[7]!.fields['description'] = 'edited')],
    [
      'a route of an unchanged edge',
      (r: Resources) => (r.httpsEdgeRoute[3]!.fields['match'] = '/x'),
    ],
    [
      'a backend others fall over to',
      (r: Resources) => (r.failoverBackend[10]!.fields['backends'] = []),
    ],
    [
      'a create and a delete',
      (r: Resources) => {
        r.ipPolicy.splice(5, 1);
        r.ipPolicy.push({ name: 'ipPolicy/new', id: 'id_new', fields: { description: 'new' } });
      },
    ],
  ])('finds %s as the whole plan does, unchanged resources in its order', async (_, edit) => {
    const live = changed(edit);
    const whole = planSnapshot(live, baseline, { prune: true });
    const found = await compare(baseline, live);
    expect(found?.plan.steps).toEqual(whole.steps);
    expect(found?.plan.ids).toEqual(whole.ids);
    expect(found?.plan.targetIds).toEqual(whole.targetIds);
    expect(found?.plan.blockers).toEqual(whole.blockers);
    expect(found?.changes).toEqual({ ...planView(whole), blockers: [] });
    expect(changesOf(whole).length).toBeGreaterThan(0);
  });

  it("names a resource as Put back's plan does, when a change outside Burrow renamed it", async () => {
    const policy = baseline.resources.ipPolicy[7]!;
    const live = changed((r) => {
      // Names come from descriptions: a script's edit names it anew in the live account's read.
      r.ipPolicy[7] = {
        ...policy,
        name: 'ipPolicy/office-network-changed-by-script',
        fields: { description: 'office-network-changed-by-script' },
      };
    });
    const found = await compare(baseline, live);
    const putBack = planSnapshot(baseline, live, { prune: true });
    const updated = (steps: readonly { action: string; name: string }[]) =>
      steps.filter((step) => step.action === 'update').map((step) => step.name);
    expect(updated(found?.changes.steps ?? [])).toEqual([policy.name]);
    expect(updated(putBack.steps)).toEqual([policy.name]);
  });

  it('reports no rules of a baseline written before snapshots held them, and still reports the rest', async () => {
    const baseline = { ...account(3), kindsLeftOut: ['ipPolicyRule' as const] };
    const live = changed((r) => {
      r.ipPolicy[0]!.fields['description'] = 'edited';
      r.ipPolicyRule.push({
        name: 'ipPolicyRule/p-1/10.0.0.0-8',
        id: 'ipr_1',
        fields: { action: 'allow', cidr: '10.0.0.0/8', ip_policy_id: 'ipPolicy/p-1' },
      });
    });
    live.resources.ipPolicy.splice(3);
    expect((await compare(baseline, live))?.summary).toBe('1 IP policy updated');
    // A baseline of today that holds no rules does report them.
    expect((await compare(account(3), live))?.summary).toMatch(/1 IP policy rule created/);
  });

  it('finds nothing when nothing changed', async () => {
    await expect(compare(baseline, account(300))).resolves.toBeNull();
  });

  it("serves the event loop between slices of a large account, so a person's call is not held for the whole comparison", async () => {
    const large = account(5_000);
    const live = structuredClone(large);
    live.resources.ipPolicy[4_000]!.fields['description'] = 'edited';
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns += 1;
      setImmediate(count);
    };
    setImmediate(count);
    const found = await compare(large, live);
    counting = false;
    expect(found?.summary).toBe('1 IP policy updated');
    expect(turns).toBeGreaterThanOrEqual(20);
  });
});
