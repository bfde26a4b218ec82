import { readdir, stat } from 'node:fs/promises';
import type { StoppedApplyView } from '../../../shared/app/ipc/snapshots.ts';
import { doneSteps } from './apply.ts';
import {
  journalIdOf,
  journalPath,
  readJournal,
  removeJournal,
  stepsPath,
  type Journal,
} from './journal.ts';

/** A journal this old is of an apply nobody will carry on; it holds secrets, so it goes. */
const STOPPED_APPLY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** An apply that stopped and may be carried on, as it is offered where applies are. */
export type StoppedApply = StoppedApplyView;

async function lastTouched(folder: string, id: string): Promise<number> {
  const times = await Promise.all(
    [journalPath(folder, id), stepsPath(folder, id)].map((path) =>
      stat(path).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  return Math.max(...times);
}

const summary = (journal: Journal, at: number): StoppedApply => ({
  journalId: journal.id,
  target: journal.about.target,
  source: journal.about.source,
  stoppedAt: new Date(at).toISOString(),
  done: doneSteps(journal),
  total: journal.plan.steps.filter((s) => s.action !== 'unchanged').length,
});

/**
 * The stopped applies of account `owner`, newest first. Any journal older than thirty days, or
 * that cannot be read (damaged, or of an older Burrow), is removed on the way, whoever's it is.
 */
export async function stoppedApplies(
  folder: string,
  owner: string,
  now = Date.now(),
): Promise<StoppedApply[]> {
  const ids = (await readdir(folder).catch(() => [])).flatMap((name) => journalIdOf(name) ?? []);
  const found: StoppedApply[] = [];
  for (const id of ids) {
    const at = await lastTouched(folder, id);
    const journal =
      now - at > STOPPED_APPLY_DAYS * DAY_MS
        ? undefined
        : await readJournal(folder, id).catch(() => undefined);
    if (journal === undefined) await removeJournal(folder, id);
    else if (journal.about.owner === owner) found.push(summary(journal, at));
  }
  return found.sort((a, b) => b.stoppedAt.localeCompare(a.stoppedAt));
}

/** The journal `id` of account `owner`; undefined when there is none of that account. */
export async function stoppedJournal(
  folder: string,
  owner: string,
  id: string,
): Promise<Journal | undefined> {
  if (!/^[0-9a-f]{16}$/.test(id)) return undefined;
  const journal = await readJournal(folder, id).catch(() => undefined);
  return journal?.about.owner === owner ? journal : undefined;
}
