import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Drift } from '../../shared/app/ipc/drift.ts';
import {
  SNAPSHOT_KINDS,
  type SnapshotDocument,
  type SnapshotEntry,
  type SnapshotKind,
} from '../../shared/app/snapshot-document.ts';
import { canonical } from '../snapshot/resources/fields.ts';
import { dependencyOrder } from '../snapshot/plan/order.ts';
import { changesOf, planSnapshot, type Plan, type PlanStep } from '../snapshot/plan/plan.ts';
import { planView } from '../snapshot/plan/view.ts';
import { secretsChangedIn } from './secrets.ts';
import { driftSummary } from './words.ts';

/*
 * Planning 10,000 resources in one go holds the main thread for a few hundred milliseconds, and
 * a person's call made meanwhile waits that long. So the resources are first told apart a slice
 * at a time, the event loop served between slices, and only those that differ are planned: an
 * account's drift is a few resources, whatever its size.
 */

/** What a comparison found, apart from when it was first found. */
export type Found = Omit<Drift, 'foundAt'> & { readonly plan: Plan };

/** Resources compared between two turns of the event loop: about a millisecond's work. */
const SLICE = 250;

const keyOf = (kind: SnapshotKind, entry: SnapshotEntry) => `${kind} ${entry.id}`;

/** Each resource's canonical text by kind and id, a slice at a time. */
async function textsOf(document: SnapshotDocument): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const kind of SNAPSHOT_KINDS) {
    const entries = document.resources[kind];
    for (let at = 0; at < entries.length; at += SLICE) {
      for (const entry of entries.slice(at, at + SLICE))
        texts.set(keyOf(kind, entry), JSON.stringify(canonical(entry)));
      await nextTurn();
    }
  }
  return texts;
}

/** The resources, by kind and id, that are not the same in both documents. */
async function differingKeys(
  baseline: SnapshotDocument,
  live: SnapshotDocument,
): Promise<Set<string>> {
  const before = await textsOf(baseline);
  const after = await textsOf(live);
  const keys = new Set<string>();
  for (const [key, text] of after) if (before.get(key) !== text) keys.add(key);
  for (const key of before.keys()) if (!after.has(key)) keys.add(key);
  return keys;
}

/**
 * `document` with only the resources `kept` keeps, and the edges theirs belong to: a route's
 * step names its edge's id, which the plan finds among the target's resources.
 */
function narrowed(
  document: SnapshotDocument,
  kept: (kind: SnapshotKind, entry: SnapshotEntry) => boolean,
): SnapshotDocument {
  const edges = new Set(
    SNAPSHOT_KINDS.flatMap((kind) =>
      document.resources[kind].flatMap((e) => (kept(kind, e) && e.edge ? [e.edge] : [])),
    ),
  );
  const resources = Object.fromEntries(
    SNAPSHOT_KINDS.map((kind) => [
      kind,
      document.resources[kind].filter((e) => kept(kind, e) || edges.has(e.name)),
    ]),
  ) as SnapshotDocument['resources'];
  return { ...document, resources };
}

/**
 * The plan of the differing resources, completed with the unchanged ones as the whole
 * documents' plan has them, in its order. Its digest covers the differing resources only: it
 * names an apply's journal, and this plan is never applied (Put back plans afresh).
 */
async function completed(
  live: SnapshotDocument,
  baseline: SnapshotDocument,
  plan: Plan,
): Promise<Plan> {
  const planned = new Map(
    plan.steps.flatMap((s) => (s.action === 'delete' ? [] : [[`${s.kind} ${s.name}`, s]])),
  );
  const steps: PlanStep[] = [];
  const ids = { ...plan.ids };
  for (const kind of SNAPSHOT_KINDS) {
    const ordered = dependencyOrder(live.resources[kind]);
    for (let at = 0; at < ordered.length; at += SLICE) {
      for (const entry of ordered.slice(at, at + SLICE)) {
        const step = planned.get(`${kind} ${entry.name}`);
        if (step === undefined) ids[entry.name] = entry.id;
        steps.push(step ?? { action: 'unchanged', kind, name: entry.name, id: entry.id });
      }
      await nextTurn();
    }
  }
  const targetIds = SNAPSHOT_KINDS.flatMap((k) => baseline.resources[k].map((e) => e.id)).sort();
  const deletes = plan.steps.filter((s) => s.action === 'delete');
  await nextTurn();
  return { ...plan, steps: [...steps, ...deletes], ids, targetIds };
}

/**
 * `plan` with each changed resource named as the baseline names it. Names come from what a
 * resource says of itself (its description): an edit outside Burrow renames it in the live
 * account's read, and Put back's plan (the baseline applied to the account) names it as the
 * baseline does. Both then name it the same.
 */
function namedAsBaseline(plan: Plan, baseline: SnapshotDocument): Plan {
  const names = new Map(
    SNAPSHOT_KINDS.flatMap((kind) => baseline.resources[kind].map((e) => [keyOf(kind, e), e.name])),
  );
  const steps = plan.steps.map((step) =>
    step.action === 'update'
      ? { ...step, name: names.get(`${step.kind} ${step.id}`) ?? step.name }
      : step,
  );
  return { ...plan, steps };
}

/**
 * Baseline → live, as the snapshot plan of the live account applied onto the baseline, pruning:
 * a create is new in live, a delete gone from it. Null when they are the same.
 */
export async function compare(
  baseline: SnapshotDocument,
  live: SnapshotDocument,
): Promise<Found | null> {
  const differing = await differingKeys(baseline, live);
  // A baseline from before a kind was kept says nothing of its resources: none of them drifted.
  const leftOut = new Set(baseline.kindsLeftOut ?? []);
  const differs = (kind: SnapshotKind, entry: SnapshotEntry) =>
    !leftOut.has(kind) && differing.has(keyOf(kind, entry));
  const mine = narrowed(live, differs);
  await nextTurn();
  const target = narrowed(baseline, differs);
  await nextTurn();
  const narrow = planSnapshot(mine, target, { prune: true });
  if (changesOf(narrow).length === 0) return null;
  const plan = namedAsBaseline(await completed(live, baseline, narrow), baseline);
  const changes = changesOf(plan);
  // Blockers are about writing live onto the baseline, which nobody does: not shown.
  const view = { ...planView(plan), blockers: [] };
  const id = createHash('sha256')
    .update(JSON.stringify(canonical(changes)))
    .digest('hex')
    .slice(0, 16);
  return {
    id,
    summary: driftSummary(changes),
    changes: view,
    secretsChanged: secretsChangedIn(changes),
    plan,
  };
}
