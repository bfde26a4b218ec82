/** What a plan is made of: its steps and what blocks it, apart from how a plan is made. */
import type { SnapshotKind } from '../../../shared/app/snapshot-document.ts';

type Json = Record<string, unknown>;

/** One field that differs: a plain field, or a whole module (`path` is the module's name). */
export type FieldChange = { readonly path: string; readonly from: unknown; readonly to: unknown };

type StepBase = { readonly kind: SnapshotKind; readonly name: string };
export type CreateStep = StepBase & {
  readonly action: 'create';
  /** The create body, references as local names. */
  readonly fields: Json;
  readonly edge?: string;
};
export type UpdateStep = StepBase & {
  readonly action: 'update';
  readonly id: string;
  readonly edgeId?: string;
  readonly changes: readonly FieldChange[];
  /** One PATCH with these fields (references as names), unless empty. */
  readonly patch: Json;
  /** One PUT per module to set, one DELETE per module set to null. */
  readonly modules: readonly { readonly module: string; readonly value: Json | null }[];
};
export type DeleteStep = StepBase & {
  readonly action: 'delete';
  readonly id: string;
  readonly edgeId?: string;
};
export type UnchangedStep = StepBase & { readonly action: 'unchanged'; readonly id: string };
export type PlanStep = CreateStep | UpdateStep | DeleteStep | UnchangedStep;

/** Why the plan cannot be applied as it is; apply refuses before its first call. */
export type Blocker = { readonly name: string; readonly field: string; readonly reason: string };

export type Plan = {
  /** Digest of the snapshot's resources: a journal of this document and target resumes. */
  readonly documentDigest: string;
  readonly targetApiUrl: string;
  readonly prune: boolean;
  /** In dependency order: creates and updates kind by kind, then deletes in reverse. */
  readonly steps: readonly PlanStep[];
  /** Local name → id in the target, for every snapshot resource the target already has. */
  readonly ids: Readonly<Record<string, string>>;
  /** Every id the target held when planned: what apply finds beyond them, it made. */
  readonly targetIds: readonly string[];
  readonly blockers: readonly Blocker[];
  /** Target resources the snapshot does not have, left alone without `prune`. */
  readonly untouched: readonly string[];
};
