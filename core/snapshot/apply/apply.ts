import type { ApiClient } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import type { Priority } from '../../api/governor.ts';
import { AppError } from '../../errors.ts';
import { swapRefs } from '../resources/fields.ts';
import {
  markStep,
  openJournal,
  removeJournal,
  type Journal,
  type JournalAbout,
} from './journal.ts';
import { KINDS } from '../resources/kinds.ts';
import { takeApplyLock } from './lock.ts';
import type { Blocker, Plan, PlanStep } from '../plan/plan.ts';
import { findCreated } from './recover.ts';
import { systemClock, type Clock } from '../../../shared/node/clock.ts';

type Json = Record<string, unknown>;
type Client = Pick<ApiClient, 'call' | 'listAll'>;

export type ApplyProgress = {
  /** Steps that change something, done and in all. */
  readonly done: number;
  readonly total: number;
  /** The step starting now, or null once all are done. */
  readonly step: PlanStep | null;
  /** From the pace of this run's calls so far; null before the first call ends. */
  readonly remainingMs: number | null;
};

/** The plan that will run (an earlier apply's, when carried on), and how much of it is done. */
export type ApplyingPlan = {
  readonly plan: Plan;
  readonly resumed: boolean;
  readonly done: number;
};

export type ApplyOptions = {
  /** Where the journal lives (the data folder's): the same folder resumes an apply that stopped. */
  readonly journalDir: string;
  /** The target account and the labels its journal keeps. */
  readonly about: JournalAbout;
  /** This process, as a second apply to the same account is told: "burrow apply". */
  readonly holder: string;
  /** Asked once the account is locked and the journal read; false stops before any call. */
  readonly confirm?: (applying: ApplyingPlan) => Promise<boolean>;
  /**
   * The same snapshot planned again, under the lock: a new apply whose account changed since
   * it was planned (another apply finished in between) stops before any call.
   */
  readonly replan?: () => Promise<Plan>;
  readonly onProgress?: (progress: ApplyProgress) => void;
  readonly signal?: AbortSignal;
  readonly priority?: Priority;
  /** The wall clock (default Date.now): progress estimates, and when each step started. */
  readonly now?: () => number;
  /** The timers a resumed create waits on for an earlier run's call to land (the system's). */
  readonly clock?: Pick<Clock, 'setTimer'>;
};

export type ApplyResult = {
  readonly created: number;
  readonly updated: number;
  readonly deleted: number;
  readonly unchanged: number;
  /** True when an earlier apply of the same snapshot to the same account was carried on. */
  readonly resumed: boolean;
  /** Local name → id in the target, of every resource of the snapshot. */
  readonly ids: Readonly<Record<string, string>>;
};

/** The plan cannot be applied as it is; nothing was sent. */
export class ApplyBlockedError extends Error {
  constructor(readonly blockers: readonly Blocker[]) {
    super(
      `Nothing was applied: ${blockers.map((b) => `${b.name} ${b.field}: ${b.reason}`).join('; ')}`,
    );
    this.name = 'ApplyBlockedError';
  }
}

/** The person said no: nothing was sent. */
export class ApplyCancelledError extends Error {
  constructor() {
    super('Apply cancelled: nothing was changed');
    this.name = 'ApplyCancelledError';
  }
}

/** A step failed: the API's error is the cause; `done` lists what this and earlier runs did. */
export class ApplyStepError extends Error {
  constructor(
    readonly step: PlanStep,
    readonly done: readonly PlanStep[],
    override readonly cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${step.action} ${step.name} failed after ${done.length} step(s) done: ${reason}`);
    this.name = 'ApplyStepError';
  }
}

/** The calls a step makes: for the time-left estimate, and what a step costs of the rate limit. */
export function callsOf(step: PlanStep): number {
  if (step.action === 'update')
    return (Object.keys(step.patch).length > 0 ? 1 : 0) + step.modules.length;
  return step.action === 'unchanged' ? 0 : 1;
}

/** A 404 to a delete: what it would remove is gone already. */
const unlessGone = (error: unknown) => {
  if (!(error instanceof ApiError && error.status === 404)) throw error;
};

/** The path parameters of a resource of the target: a route's include its edge. */
const idParams = (step: { readonly id: string; readonly edgeId?: string }) =>
  step.edgeId === undefined ? { id: step.id } : { edge_id: step.edgeId, id: step.id };

class Run {
  private readonly call: (name: string, request: object) => Promise<unknown>;
  private readonly now: () => number;
  constructor(
    private readonly client: Client,
    private readonly journal: Journal,
    private readonly options: ApplyOptions,
  ) {
    this.call = client.call as (name: string, request: object) => Promise<unknown>;
    this.now = options.now ?? Date.now;
  }

  private markStarted(index: number): Promise<void> {
    return markStep(this.options.journalDir, this.journal, index, {
      state: 'started',
      at: this.now(),
    });
  }

  /** The target's id of a local name: made by this apply, or there when planned. */
  private idOf(name: string): string | undefined {
    return this.journal.ids[name] ?? this.journal.plan.ids[name];
  }

  private resolve(fields: Json): Json {
    return swapRefs(fields, (name) => {
      const id = this.idOf(name);
      if (id === undefined) throw new Error(`"${name}" has no id in the target yet`);
      return id;
    });
  }

  private request(params: Json, body?: Json): object {
    const { signal, priority } = this.options;
    return { params, ...(body !== undefined && { body }), signal, priority };
  }

  /** The id of what the step created, or of what an earlier run's call of it did. */
  private async create(
    step: Extract<PlanStep, { action: 'create' }>,
    index: number,
  ): Promise<string> {
    const group = KINDS[step.kind].group;
    const body = this.resolve(step.fields);
    const edgeId = step.edge === undefined ? undefined : this.idOf(step.edge);
    const params = edgeId === undefined ? {} : { edge_id: edgeId };
    if (this.journal.steps[index] === 'started') {
      const known = new Set([
        ...this.journal.plan.targetIds,
        ...Object.values(this.journal.plan.ids),
        ...Object.values(this.journal.ids),
      ]);
      const found = await findCreated({
        client: this.client,
        kind: step.kind,
        body,
        known,
        sentAt: this.journal.startedAt[index],
        now: this.now,
        clock: this.options.clock ?? systemClock,
        ...(edgeId !== undefined && { edgeId }),
        ...(this.options.signal !== undefined && { signal: this.options.signal }),
      });
      if (found !== undefined) return found;
    }
    await this.markStarted(index);
    const created = (await this.call(`${group}.create`, this.request(params, body))) as {
      id: string;
    };
    return created.id;
  }

  private async update(step: Extract<PlanStep, { action: 'update' }>): Promise<void> {
    const group = KINDS[step.kind].group;
    const params = idParams(step);
    if (Object.keys(step.patch).length > 0)
      await this.call(`${group}.update`, this.request(params, this.resolve(step.patch)));
    for (const { module, value } of step.modules) {
      if (value !== null) {
        await this.call(`${group}.${module}.replace`, this.request(params, this.resolve(value)));
        continue;
      }
      await this.call(`${group}.${module}.delete`, this.request(params)).catch(unlessGone);
    }
  }

  private async remove(step: Extract<PlanStep, { action: 'delete' }>): Promise<void> {
    // Gone already: an earlier run deleted it and stopped before writing so.
    await this.call(`${KINDS[step.kind].group}.delete`, this.request(idParams(step))).catch(
      unlessGone,
    );
  }

  async run(): Promise<void> {
    const { plan } = this.journal;
    const { now } = this;
    const changing = plan.steps.flatMap((step, index) =>
      step.action === 'unchanged' ? [] : [{ step, index }],
    );
    const isDone = (index: number) => this.journal.steps[index] === 'done';
    let callsLeft = changing.reduce(
      (n, { step, index }) => n + (isDone(index) ? 0 : callsOf(step)),
      0,
    );
    let callsMade = 0;
    const started = now();
    const report = (step: PlanStep | null) =>
      this.options.onProgress?.({
        done: changing.filter(({ index }) => isDone(index)).length,
        total: changing.length,
        step,
        remainingMs:
          callsMade === 0 ? null : Math.round(((now() - started) / callsMade) * callsLeft),
      });
    for (const { step, index } of changing) {
      if (isDone(index)) continue;
      report(step);
      let created: { name: string; id: string } | undefined;
      try {
        if (step.action === 'create')
          created = { name: step.name, id: await this.create(step, index) };
        else {
          await this.markStarted(index);
          if (step.action === 'update') await this.update(step);
          else if (step.action === 'delete') await this.remove(step);
        }
      } catch (error) {
        const done = changing.filter(({ index: i }) => isDone(i)).map(({ step: s }) => s);
        throw new ApplyStepError(step, done, error);
      }
      await markStep(this.options.journalDir, this.journal, index, { state: 'done', created });
      callsMade += callsOf(step);
      callsLeft -= callsOf(step);
    }
    await removeJournal(this.options.journalDir, this.journal.id);
    report(null);
  }
}

/** Steps of the journal done, by this and earlier runs. */
export const doneSteps = (journal: Pick<Journal, 'steps'>) =>
  Object.values(journal.steps).filter((s) => s === 'done').length;

/**
 * Applies `plan` at the client's pace (its governor keeps to the rate limit), journalling every
 * step, with the account locked against any other apply. If the journal folder holds an
 * unfinished apply of the same snapshot to the same account, that apply is carried on instead,
 * from its own plan: nothing is created twice.
 */
export async function applyPlan(
  client: Client,
  plan: Plan,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const { journalDir, about, holder } = options;
  const release = await takeApplyLock(journalDir, about.owner, about.target, holder);
  try {
    return await applyLocked(client, plan, options);
  } finally {
    await release();
  }
}

/** Two applies planned side by side: the second must not make everything again. */
async function refuseIfChanged(plan: Plan, options: ApplyOptions): Promise<void> {
  const now = await options.replan?.();
  if (now === undefined || JSON.stringify(now.steps) === JSON.stringify(plan.steps)) return;
  throw new AppError(
    'SNAPSHOT_STALE',
    `${options.about.target} changed since this plan was made (another apply, or a change ` +
      'outside Burrow): plan again',
  );
}

async function applyLocked(
  client: Client,
  plan: Plan,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const { journal, resumed } = await openJournal(options.journalDir, plan, options.about);
  if (journal.plan.blockers.length > 0) throw new ApplyBlockedError(journal.plan.blockers);
  if (!resumed && options.replan !== undefined) await refuseIfChanged(plan, options);
  const applying = { plan: journal.plan, resumed, done: doneSteps(journal) };
  if (options.confirm !== undefined && !(await options.confirm(applying)))
    throw new ApplyCancelledError();
  await new Run(client, journal, options).run();
  const count = (action: PlanStep['action']) =>
    journal.plan.steps.filter((s) => s.action === action).length;
  return {
    created: count('create'),
    updated: count('update'),
    deleted: count('delete'),
    unchanged: count('unchanged'),
    resumed,
    ids: { ...journal.plan.ids, ...journal.ids },
  };
}
