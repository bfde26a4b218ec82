import { z } from 'zod';
import type { SnapshotKind } from '../snapshot-document.ts';
import { ProfileId } from './profiles.ts';
import { MAX_SNAPSHOT_TEXT } from './snapshot-limits.ts';

/*
 * Snapshots in the window: export a profile to a file (or, in browser mode, a download), open a
 * snapshot file, plan it (or another profile) against a profile, and apply the plan with
 * progress. Core keeps what was opened and planned under short ids, so a plan's secrets never
 * travel to the window: what comes back is masked.
 */

/** Names a snapshot or plan core holds, or the progress events of one run. */
const Handle = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an id of letters and digits');

const ExportRequest = z.strictObject({
  profileId: ProfileId,
  /** Keep the client and webhook secrets: the file is then written 0600. */
  withSecrets: z.boolean(),
  /** `file`: the shell's save dialog picks the path; `document`: the text comes back (browser). */
  to: z.enum(['file', 'document']),
  requestId: Handle.optional(),
});
export type ExportRequest = z.input<typeof ExportRequest>;

const OpenRequest = z.strictObject({
  /** The file's name, for messages. */
  fileName: z.string().trim().min(1).max(255),
  text: z
    .string()
    .max(MAX_SNAPSHOT_TEXT, `must be at most ${MAX_SNAPSHOT_TEXT.toLocaleString('en')} characters`),
});
export type OpenRequest = z.input<typeof OpenRequest>;

const PlanSource = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('snapshot'), snapshotId: Handle }),
  z.strictObject({ type: z.literal('profile'), profileId: ProfileId }),
]);
export type PlanSource = z.input<typeof PlanSource>;

const PlanRequest = z.strictObject({
  source: PlanSource,
  targetProfileId: ProfileId,
  /** Also delete what the source does not have. */
  prune: z.boolean(),
  requestId: Handle.optional(),
});
export type PlanRequest = z.input<typeof PlanRequest>;

const ApplyRequest = z.strictObject({ planId: Handle, requestId: Handle });
export type ApplyRequest = z.input<typeof ApplyRequest>;

const StoppedRequest = z.strictObject({ profileId: ProfileId });
export type StoppedRequest = z.input<typeof StoppedRequest>;

/** Names an apply to a profile that stopped, as `snapshots.stopped` listed it. */
const StoppedApplyRequest = z.strictObject({
  profileId: ProfileId,
  journalId: z.string().regex(/^[0-9a-f]{16}$/, 'must be an id from snapshots.stopped'),
});
export type StoppedApplyRequest = z.input<typeof StoppedApplyRequest>;

/** An apply that stopped (failed, cancelled, killed): it can be carried on, or discarded. */
export type StoppedApplyView = {
  readonly journalId: string;
  /** The profile and the snapshot as they were named when it ran. */
  readonly target: string;
  readonly source: string;
  readonly stoppedAt: string;
  /** Changes made, of those it plans. */
  readonly done: number;
  readonly total: number;
};

export type ExportResult =
  | {
      readonly status: 'saved';
      readonly path: string;
      readonly resources: number;
      readonly containsSecrets: boolean;
    }
  | { readonly status: 'cancelled' }
  | {
      readonly status: 'document';
      readonly text: string;
      /** A name to offer the download under. */
      readonly fileName: string;
      readonly resources: number;
      readonly containsSecrets: boolean;
    };

/** A snapshot core opened: what the window shows of it before planning. */
export type OpenedSnapshot = {
  readonly snapshotId: string;
  readonly fileName: string;
  readonly exportedAt: string;
  readonly source: { readonly apiUrl: string; readonly profileName?: string };
  readonly containsSecrets: boolean;
  readonly resources: number;
};

/** A snapshot file the shell's open dialog chose, read and opened by core. */
export type OpenFileResult =
  | { readonly status: 'opened'; readonly snapshot: OpenedSnapshot }
  | { readonly status: 'cancelled' }
  /** No dialog here (browser mode): the window reads the file from its own file input. */
  | { readonly status: 'unavailable'; readonly reason: string };

export type FieldChange = { readonly path: string; readonly from: unknown; readonly to: unknown };

/** One step of a plan as it may be shown: secrets masked, no request bodies. */
export type StepView = {
  readonly action: 'create' | 'update' | 'delete' | 'unchanged';
  readonly kind: SnapshotKind;
  readonly name: string;
  /** The API's group of the kind (`ipPolicies`), for its words in the window. */
  readonly group: string;
  /** The resource in the target; absent for a create. */
  readonly id?: string;
  /** A create's fields, references as local names. */
  readonly fields?: Readonly<Record<string, unknown>>;
  /** A route's HTTPS edge, by local name. */
  readonly edge?: string;
  /** An update's fields that differ. */
  readonly changes?: readonly FieldChange[];
};

export type PlanCounts = {
  readonly create: number;
  readonly update: number;
  readonly delete: number;
  readonly unchanged: number;
};

export type PlanView = {
  readonly counts: PlanCounts;
  /** In dependency order: creates and updates kind by kind, then deletes. */
  readonly steps: readonly StepView[];
  /** Resources of the target the source lacks, left alone without prune. */
  readonly untouched: readonly string[];
  /** Why it cannot be applied as it is. */
  readonly blockers: readonly {
    readonly name: string;
    readonly field: string;
    readonly reason: string;
  }[];
  readonly prune: boolean;
};

export type PlannedSnapshot = PlanView & {
  readonly planId: string;
  /** For headings: "prod.json" or the source profile's name, and the target profile's. */
  readonly sourceLabel: string;
  readonly targetLabel: string;
  /** An earlier apply of the same source to the same target stopped: applying carries it on. */
  readonly resumes: boolean;
  /** When it resumes: the stopped apply it carries on (as `snapshots.stopped` names it). */
  readonly resume?: { readonly journalId: string; readonly done: number };
};

export type ApplyOutcome =
  | {
      readonly ok: true;
      readonly created: number;
      readonly updated: number;
      readonly deleted: number;
      readonly unchanged: number;
      readonly resumed: boolean;
    }
  | {
      readonly ok: false;
      /** The API's error (or the app's), as calls answer it. */
      readonly error: {
        readonly code: string;
        readonly message: string;
        readonly operationId?: string | undefined;
      };
      /** The step that failed; null when nothing was sent (blocked, cancelled before the first). */
      readonly step: { readonly action: StepView['action']; readonly name: string } | null;
      /** Steps done by this and earlier runs. */
      readonly done: readonly { readonly action: StepView['action']; readonly name: string }[];
      readonly cancelled: boolean;
    };

const SnapshotProgress = z.object({
  requestId: Handle,
  phase: z.enum(['reading', 'applying']),
  /** Reading: kinds read; applying: changing steps done. */
  done: z.int(),
  total: z.int(),
  /** What is being read or changed now. */
  current: z.string().nullable(),
  remainingMs: z.number().nullable(),
});
export type SnapshotProgress = z.infer<typeof SnapshotProgress>;

const answer = <T>() => z.custom<T>();

export const snapshotCalls = {
  'snapshots.export': { args: z.tuple([ExportRequest]), result: answer<ExportResult>() },
  'snapshots.open': { args: z.tuple([OpenRequest]), result: answer<OpenedSnapshot>() },
  /** Asks the shell's open dialog for a snapshot file and opens it: no path crosses the bridge. */
  'snapshots.openFile': { args: z.tuple([]), result: answer<OpenFileResult>() },
  'snapshots.plan': { args: z.tuple([PlanRequest]), result: answer<PlannedSnapshot>() },
  'snapshots.apply': { args: z.tuple([ApplyRequest]), result: answer<ApplyOutcome>() },
  /** The applies to a profile that stopped; journals older than 30 days are removed. */
  'snapshots.stopped': {
    args: z.tuple([StoppedRequest]),
    result: answer<readonly StoppedApplyView[]>(),
  },
  /** A stopped apply as a plan, to apply as any plan is: it carries on where it stopped. */
  'snapshots.carryOn': {
    args: z.tuple([StoppedApplyRequest]),
    result: answer<PlannedSnapshot>(),
  },
  /** Forgets a stopped apply (its journal holds secrets); what it did stays done. */
  'snapshots.discard': { args: z.tuple([StoppedApplyRequest]), result: z.void() },
  /** Stops a running export, plan or apply by its request id; true when there was one. */
  'snapshots.cancel': { args: z.tuple([Handle]), result: z.boolean() },
} as const;

export const snapshotEvents = { 'snapshots.progress': SnapshotProgress } as const;
