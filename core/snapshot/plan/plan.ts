import { createHash } from 'node:crypto';
import {
  SNAPSHOT_KINDS,
  type SnapshotDocument,
  type SnapshotEntry,
  type SnapshotKind,
} from '../../../shared/app/snapshot-document.ts';
import { canonical, keysOf, swapRefs } from '../resources/fields.ts';
import { KINDS } from '../resources/kinds.ts';
import { dependencyOrder } from './order.ts';
import type { Blocker, DeleteStep, FieldChange, Plan, PlanStep, UpdateStep } from './steps.ts';
import { invalidFields } from './validate.ts';
import {
  fillSecretsFrom,
  hideSecretsMissingFrom,
  missingSecretReason,
  missingSecrets,
} from './secrets.ts';

type Json = Record<string, unknown>;

export type {
  Blocker,
  CreateStep,
  DeleteStep,
  FieldChange,
  Plan,
  PlanStep,
  UnchangedStep,
  UpdateStep,
} from './steps.ts';

export type PlanOptions = { readonly prune?: boolean };

function documentDigest(document: SnapshotDocument): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(document.resources)))
    .digest('hex');
}

const same = (a: unknown, b: unknown) =>
  JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** Pairs each snapshot resource with the target's: the same id first, else the same name. */
function match(mine: readonly SnapshotEntry[], theirs: readonly SnapshotEntry[]) {
  const free = new Map(theirs.map((t) => [t.id, t]));
  const pairs = new Map<SnapshotEntry, SnapshotEntry>();
  for (const entry of mine) {
    const byId = free.get(entry.id);
    if (byId) {
      pairs.set(entry, byId);
      free.delete(byId.id);
    }
  }
  const byNames = new Map([...free.values()].map((t) => [t.name, t]));
  for (const entry of mine) {
    if (pairs.has(entry)) continue;
    const byName = byNames.get(entry.name);
    if (byName && free.has(byName.id)) {
      pairs.set(entry, byName);
      free.delete(byName.id);
    }
  }
  return { pairs, unmatched: [...free.values()] };
}

function diff(
  kind: SnapshotKind,
  entry: SnapshotEntry,
  target: Json,
  blockers: Blocker[],
): Omit<UpdateStep, 'action' | 'kind' | 'name' | 'id' | 'edgeId'> {
  const info = KINDS[kind];
  const updatable = new Set(keysOf(info.update));
  // A secret one side lacks cannot be compared: the snapshot's, or an export made without them.
  const compared = hideSecretsMissingFrom(entry.fields, target);
  const wanted = hideSecretsMissingFrom(target, entry.fields);
  const changes: FieldChange[] = [];
  const patch: Json = {};
  const modules: { module: string; value: Json | null }[] = [];
  const keys = new Set([...Object.keys(entry.fields), ...Object.keys(compared)]);
  for (const key of [...keys].sort()) {
    const isModule = key in info.modules;
    const to = wanted[key] ?? (isModule ? null : undefined);
    const from = compared[key] ?? (isModule ? null : undefined);
    // A plain field the snapshot leaves out is one it says nothing about.
    if (to === undefined || same(from, to)) continue;
    changes.push({ path: key, from, to });
    if (!updatable.has(key))
      blockers.push({ name: entry.name, field: key, reason: 'cannot be changed once created' });
    else if (!isModule) patch[key] = to;
    else {
      // What is written is the snapshot's module whole, completed with the account's secrets.
      const own = entry.fields[key] ?? null;
      const value = own === null ? null : (fillSecretsFrom({ [key]: own }, target)[key] as Json);
      for (const secret of value === null ? [] : missingSecrets({ [key]: value }))
        blockers.push({
          name: entry.name,
          field: secret,
          reason: missingSecretReason({ [key]: own }, target, secret.split('.')),
        });
      modules.push({ module: key, value });
    }
  }
  return { changes, patch, modules };
}

/** Deletes of one kind: what refers to others of its kind (a failover's parent) goes first. */
function deleteSteps(
  kind: SnapshotKind,
  unmatched: readonly SnapshotEntry[],
  targetIdOf: ReadonlyMap<string, string>,
): DeleteStep[] {
  return dependencyOrder(unmatched)
    .reverse()
    .map((theirs) => {
      const edgeId = theirs.edge === undefined ? undefined : targetIdOf.get(theirs.edge);
      return {
        action: 'delete',
        kind,
        name: theirs.name,
        id: theirs.id,
        ...(edgeId !== undefined && { edgeId }),
      };
    });
}

/**
 * What applying `document` to the account of `target` (a fresh export of it, with secrets for
 * a full comparison) would do. The plan of an account against its own export has no changes.
 */
export function planSnapshot(
  document: SnapshotDocument,
  target: SnapshotDocument,
  options: PlanOptions = {},
): Plan {
  const steps: PlanStep[] = [];
  const deletes: PlanStep[] = [];
  const ids: Record<string, string> = {};
  const blockers: Blocker[] = [];
  const untouched: string[] = [];
  const targetIdOf = new Map(
    SNAPSHOT_KINDS.flatMap((k) => target.resources[k].map((t) => [t.name, t.id] as const)),
  );
  const matched = SNAPSHOT_KINDS.map((kind) => ({
    kind,
    ...match(document.resources[kind], target.resources[kind]),
  }));
  // The target's references, renamed to the snapshot's names of the same resources.
  const toMine = new Map<string, string>();
  for (const { pairs } of matched)
    for (const [mine, theirs] of pairs) {
      toMine.set(theirs.name, mine.name);
      ids[mine.name] = theirs.id;
    }
  for (const { kind, pairs, unmatched } of matched) {
    for (const entry of dependencyOrder(document.resources[kind])) {
      const theirs = pairs.get(entry);
      if (theirs === undefined) {
        for (const secret of missingSecrets(entry.fields))
          blockers.push({
            name: entry.name,
            field: secret,
            reason: 'secret missing from the snapshot',
          });
        steps.push({
          action: 'create',
          kind,
          name: entry.name,
          fields: entry.fields,
          ...(entry.edge !== undefined && { edge: entry.edge }),
        });
        continue;
      }
      const renamed = swapRefs(theirs.fields, (name) => toMine.get(name) ?? name);
      const change = diff(kind, entry, renamed, blockers);
      const edgeId = theirs.edge === undefined ? undefined : targetIdOf.get(theirs.edge);
      steps.push(
        change.changes.length === 0
          ? { action: 'unchanged', kind, name: entry.name, id: theirs.id }
          : {
              action: 'update',
              kind,
              name: entry.name,
              id: theirs.id,
              ...(edgeId !== undefined && { edgeId }),
              ...change,
            },
      );
    }
    // A kind the file says nothing about is not one it wants emptied.
    const prunes = options.prune === true && !(document.kindsLeftOut ?? []).includes(kind);
    if (!prunes) untouched.push(...unmatched.map((t) => t.name));
    else deletes.unshift(...deleteSteps(kind, unmatched, targetIdOf));
  }
  const all = [...steps, ...deletes];
  // A missing secret is already named; the schema's "required" would say it again.
  const named = new Set(blockers.map((b) => `${b.name} ${b.field}`));
  for (const invalid of all.flatMap(invalidFields))
    if (!named.has(`${invalid.name} ${invalid.field}`)) blockers.push(invalid);
  return {
    documentDigest: documentDigest(document),
    targetApiUrl: target.source.apiUrl,
    prune: options.prune === true,
    steps: all,
    ids,
    targetIds: [...targetIdOf.values()].sort(),
    blockers,
    untouched: untouched.sort(),
  };
}

/** The steps that change something. */
export function changesOf(plan: Plan): PlanStep[] {
  return plan.steps.filter((step) => step.action !== 'unchanged');
}
