import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Plan } from './plan.ts';

/**
 * What an apply has done, on disk: each step is marked `started` before its first call and
 * `done` after its last, with the id a create made. An apply that stops anywhere (an error, a
 * quit, kill -9) leaves the journal behind, and the next apply of the same snapshot to the same
 * account resumes it. A finished apply removes its journal, which holds the plan and so any
 * secrets of the snapshot.
 */
export type Journal = {
  readonly format: 'burrow-apply-journal';
  readonly version: 1;
  /** Of the snapshot's resources, the target's address and prune: the same three resume. */
  readonly id: string;
  /** The plan being applied: a resumed apply keeps to it, not to a new plan of a half-done account. */
  readonly plan: Plan;
  /** Local name → id of what this apply created. */
  ids: Record<string, string>;
  /** By the step's index in the plan. */
  steps: Record<string, 'started' | 'done'>;
};

export function journalId(plan: Plan): string {
  return createHash('sha256')
    .update(`${plan.documentDigest}\n${plan.targetApiUrl}\n${String(plan.prune)}`)
    .digest('hex')
    .slice(0, 16);
}

export function journalPath(folder: string, id: string): string {
  return join(folder, `apply-${id}.json`);
}

/** The journal of an unfinished apply of this plan's snapshot and target, or a new one for `plan`. */
export async function openJournal(
  folder: string,
  plan: Plan,
): Promise<{ journal: Journal; resumed: boolean }> {
  const id = journalId(plan);
  let text: string | undefined;
  try {
    text = await readFile(journalPath(folder, id), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    const saved = JSON.parse(text) as Journal;
    if (saved.format !== 'burrow-apply-journal' || saved.id !== id)
      throw new Error(`${journalPath(folder, id)} is not this apply's journal`);
    return { journal: saved, resumed: true };
  }
  const journal: Journal = {
    format: 'burrow-apply-journal',
    version: 1,
    id,
    plan,
    ids: {},
    steps: {},
  };
  return { journal, resumed: false };
}

/** Written whole to a fresh file, synced, then renamed over the old one: never half a journal. */
export async function saveJournal(folder: string, journal: Journal): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = journalPath(folder, journal.id);
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await open(temporary, 'wx', 0o600);
  try {
    await file.writeFile(`${JSON.stringify(journal)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
}

/** The journal, and any temporary copy a save killed before its rename left: all hold the plan. */
export async function removeJournal(folder: string, journal: Journal): Promise<void> {
  const prefix = `${basename(journalPath(folder, journal.id))}.`;
  const leftovers = (await readdir(folder).catch(() => [])).filter(
    (name) => name.startsWith(prefix) && name.endsWith('.tmp'),
  );
  for (const name of leftovers) await rm(join(folder, name), { force: true });
  await rm(journalPath(folder, journal.id), { force: true });
}
