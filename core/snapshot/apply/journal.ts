import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeWhole } from '../../files.ts';
import type { Plan } from '../plan/plan.ts';

/**
 * What an apply has done, on disk: each step is marked `started` before its first call and
 * `done` after its last, with the id a create made. An apply that stops anywhere (an error, a
 * quit, kill -9) leaves the journal behind, and the next apply of the same snapshot to the same
 * account resumes it. A finished apply removes its journal, which holds the plan and so any
 * secrets of the snapshot.
 *
 * A journal belongs to one account (its `owner`): two keys on one address are two accounts, and
 * one's half-done apply must never be taken for the other's.
 *
 * Two files: the plan, written once before the first call, and the steps, one line appended per
 * mark; a mark costs a line, not a rewrite of the plan (that grew with the plan, twice a step).
 */
export type Journal = {
  /** Of the snapshot's resources, the target's address, prune and owner: the same four resume. */
  readonly id: string;
  readonly about: JournalAbout;
  /** The plan being applied: a resumed apply keeps to it, not to a new plan of a half-done account. */
  readonly plan: Plan;
  /** Local name → id of what this apply created. */
  readonly ids: Record<string, string>;
  /** By the step's index in the plan. */
  readonly steps: Record<string, 'started' | 'done'>;
  /**
   * By the step's index: when it was last marked started (the wall clock's ms, which another
   * process reads as this one wrote it), for a resumed create to know how long ago its call left.
   */
  readonly startedAt: Record<string, number>;
  /** Whether the plan's file is written: not before the first mark, so a refused apply leaves none. */
  stored: boolean;
};

/** Whose apply it is, and what it was of, for the list of applies that stopped. */
export type JournalAbout = {
  /** The account (see SnapshotAccount's `owner`): never the key itself. */
  readonly owner: string;
  /** The target and the snapshot as the person named them: "Staging", "prod.json". */
  readonly target: string;
  readonly source: string;
};

export type PlanFile = {
  readonly format: 'burrow-apply-journal';
  readonly version: 3;
  readonly id: string;
  readonly about: JournalAbout;
  readonly startedAt: string;
  readonly plan: Plan;
};

/** What a step is marked with: when it started, or, done, the id a create made. */
export type StepMark =
  | { readonly state: 'started'; readonly at: number }
  | { readonly state: 'done'; readonly created?: { readonly name: string; readonly id: string } };

/** One line of the steps file; a `done` create names what it made. */
type Mark = {
  readonly step: number;
  readonly state: 'started' | 'done';
  readonly at?: number;
  readonly name?: string;
  readonly id?: string;
};

function journalId(plan: Plan, owner: string): string {
  return createHash('sha256')
    .update(`${plan.documentDigest}\n${plan.targetApiUrl}\n${String(plan.prune)}\n${owner}`)
    .digest('hex')
    .slice(0, 16);
}

/** Where the data folder `dataDir` keeps its apply journals: the app's and the command's alike. */
export function journalFolder(dataDir: string): string {
  return join(dataDir, 'snapshots');
}

/** The id of the journal a file is: `apply-<id>.json`. */
export const journalIdOf = (fileName: string) => /^apply-([0-9a-f]{16})\.json$/.exec(fileName)?.[1];

export function journalPath(folder: string, id: string): string {
  return join(folder, `apply-${id}.json`);
}

export const stepsPath = (folder: string, id: string) => join(folder, `apply-${id}.steps`);

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return undefined;
  }
}

/** Marks in order; a last line cut short by a kill was never synced, so it never happened. */
function replay(journal: Journal, text: string): void {
  for (const line of text.split('\n')) {
    let mark: Mark;
    try {
      mark = JSON.parse(line) as Mark;
    } catch {
      continue;
    }
    journal.steps[mark.step] = mark.state;
    if (mark.state === 'started' && Number.isFinite(mark.at))
      journal.startedAt[mark.step] = mark.at as number;
    if (mark.name !== undefined && mark.id !== undefined) journal.ids[mark.name] = mark.id;
  }
}

/** The plan file of journal `id` that `text` holds, if it is one: a damaged file is not. */
function planFileOf(text: string, id: string): PlanFile | undefined {
  let saved: Partial<PlanFile> | null;
  try {
    saved = JSON.parse(text) as Partial<PlanFile> | null;
  } catch {
    return undefined;
  }
  const ours =
    saved?.format === 'burrow-apply-journal' &&
    saved.version === 3 &&
    saved.id === id &&
    typeof saved.about?.owner === 'string';
  return ours ? (saved as PlanFile) : undefined;
}

/** The journal `id` as the files in `folder` hold it, if it is there. */
export async function readJournal(folder: string, id: string): Promise<Journal | undefined> {
  const text = await readIfThere(journalPath(folder, id));
  if (text === undefined) return undefined;
  const saved = planFileOf(text, id);
  if (saved === undefined)
    throw new Error(`${journalPath(folder, id)} is not this apply's journal`);
  const { about, plan } = saved;
  const journal: Journal = { id, about, plan, ids: {}, steps: {}, startedAt: {}, stored: true };
  replay(journal, (await readIfThere(stepsPath(folder, id))) ?? '');
  return journal;
}

/**
 * The journal of an unfinished apply of this plan's snapshot to this account, or a new one for
 * `plan`. Another account's journal is never this one: the owner is part of the id, and checked.
 */
export async function openJournal(
  folder: string,
  plan: Plan,
  about: JournalAbout,
): Promise<{ journal: Journal; resumed: boolean }> {
  const id = journalId(plan, about.owner);
  const saved = await readJournal(folder, id);
  if (saved !== undefined && saved.about.owner !== about.owner)
    throw new Error(`${journalPath(folder, id)} is another account's journal`);
  if (saved !== undefined) return { journal: saved, resumed: true };
  return {
    journal: { id, about, plan, ids: {}, steps: {}, startedAt: {}, stored: false },
    resumed: false,
  };
}

/**
 * Marks step `index` and syncs the mark to disk before returning. The first mark writes the plan
 * first, with an empty steps file beside it.
 */
export async function markStep(
  folder: string,
  journal: Journal,
  index: number,
  mark: StepMark,
): Promise<void> {
  if (!journal.stored) {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeWhole(stepsPath(folder, journal.id), '', 0o600);
    const file: PlanFile = {
      format: 'burrow-apply-journal',
      version: 3,
      id: journal.id,
      about: journal.about,
      startedAt: new Date().toISOString(),
      plan: journal.plan,
    };
    await writeWhole(journalPath(folder, journal.id), `${JSON.stringify(file)}\n`, 0o600);
    journal.stored = true;
  }
  const line: Mark =
    mark.state === 'started'
      ? { step: index, state: mark.state, at: mark.at }
      : { step: index, state: mark.state, ...mark.created };
  const file = await open(stepsPath(folder, journal.id), 'a', 0o600);
  try {
    await file.appendFile(`${JSON.stringify(line)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  journal.steps[index] = mark.state;
  if (mark.state === 'started') journal.startedAt[index] = mark.at;
  else if (mark.created !== undefined) journal.ids[mark.created.name] = mark.created.id;
}

/** The journal, and any temporary copy a write killed before its rename left: all hold the plan. */
export async function removeJournal(folder: string, id: string): Promise<void> {
  // The plan goes first: a plan without its steps would be resumed as if nothing had been sent.
  await rm(journalPath(folder, id), { force: true });
  await rm(stepsPath(folder, id), { force: true });
  const prefixes = [journalPath, stepsPath].map((file) => `${basename(file(folder, id))}.`);
  const leftovers = (await readdir(folder).catch(() => [])).filter(
    (name) => name.endsWith('.tmp') && prefixes.some((prefix) => name.startsWith(prefix)),
  );
  for (const name of leftovers) await rm(join(folder, name), { force: true });
}
