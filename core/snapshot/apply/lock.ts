import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AppError } from '../../errors.ts';
import { isRunning } from '../../process-alive.ts';

/**
 * One apply per account at a time, across processes (the window, `burrow apply`, two terminals):
 * a lock file beside the journals. It names its holder by pid and the process's start time, so
 * a killed holder's lock is taken over, and so is one whose pid a later process reuses.
 */
type Holder = {
  readonly pid: number;
  /** Clock ticks after boot (Linux); null where the system does not say. */
  readonly started: string | null;
  readonly since: string;
  /** Who, for the refusal: "burrow apply", "the Burrow window". */
  readonly holder: string;
};

/** A process's start time, which with its pid names it; null where /proc is not there. */
function startOf(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) may hold spaces and parentheses: count from the last ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(held: Holder): boolean {
  return isRunning(held.pid) && (held.started === null || startOf(held.pid) === held.started);
}

function holderOf(text: string): Holder | undefined {
  try {
    const held = JSON.parse(text) as Partial<Holder> | null;
    return typeof held?.pid === 'number' && typeof held.holder === 'string'
      ? (held as Holder)
      : undefined;
  } catch {
    return undefined;
  }
}

const readIfThere = (path: string) => readFile(path, 'utf8').catch(() => undefined);
const clock = (iso: string) => new Date(iso).toTimeString().slice(0, 8);

export function lockPath(folder: string, owner: string): string {
  const name = createHash('sha256').update(owner).digest('hex').slice(0, 16);
  return join(folder, `apply-${name}.lock`);
}

/** Written whole, then linked into place: another process never reads half a lock. */
async function placeNew(path: string, text: string): Promise<boolean> {
  // Its pid in the name: one a killed process left is told from one being placed right now.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Removes the lock `seen` judged dead, and no newer one that took its place meanwhile. */
async function takeOver(path: string, seen: string): Promise<void> {
  const aside = `${path}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return;
  }
  if ((await readIfThere(aside)) !== seen) await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true });
}

/**
 * Takes the apply lock of account `owner`, or refuses saying who holds it. The answer releases it.
 * `label` names the account in the refusal; `holder` names this process to the next one.
 */
export async function takeApplyLock(
  folder: string,
  owner: string,
  label: string,
  holder: string,
): Promise<() => Promise<void>> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = lockPath(folder, owner);
  const mine: Holder = {
    pid: process.pid,
    started: startOf('self'),
    since: new Date().toISOString(),
    holder,
  };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await placeNew(path, text))
      return async () => {
        if ((await readIfThere(path)) === text) await rm(path, { force: true });
      };
    const seen = await readIfThere(path);
    if (seen === undefined) continue;
    const held = holderOf(seen);
    if (held !== undefined && isAlive(held))
      throw new AppError(
        'SNAPSHOT_BUSY',
        `Another apply to ${label} is running (${held.holder}, pid ${held.pid}, since ${clock(held.since)})`,
      );
    await takeOver(path, seen);
  }
  throw new AppError('SNAPSHOT_BUSY', `Another apply to ${label} is starting: try again`);
}

const LOCK_FILE = /^apply-[0-9a-f]{16}\.lock$/;
const LOCK_TEMPORARY = /^apply-[0-9a-f]{16}\.lock\.(\d+)\.[0-9a-f]+\.tmp$/;
const STEPS_FILE = /^apply-([0-9a-f]{16})\.steps$/;

/**
 * What applies killed at the wrong moment leave beside the journals: a lock whose holder is
 * dead, a lock's temporary file, the steps of a journal whose plan was already removed (a
 * finished apply removes the plan first). Swept holding the account's lock, and only while no
 * other apply is alive, since a live one may be between two of those writes; skipped when the
 * account is busy.
 */
export async function sweepLeftovers(
  folder: string,
  owner: string,
  label: string,
  holder: string,
): Promise<void> {
  const release = await takeApplyLock(folder, owner, label, holder).catch(() => undefined);
  if (release === undefined) return;
  try {
    const names = await readdir(folder).catch(() => [] as string[]);
    const ours = basename(lockPath(folder, owner));
    for (const name of names.filter((n) => LOCK_FILE.test(n) && n !== ours)) {
      const seen = await readIfThere(join(folder, name));
      if (seen === undefined) continue;
      const held = holderOf(seen);
      if (held !== undefined && isAlive(held)) return;
      await takeOver(join(folder, name), seen);
    }
    const gone = names.filter((name) => {
      const temporary = LOCK_TEMPORARY.exec(name);
      if (temporary) return !isRunning(Number(temporary[1]));
      const steps = STEPS_FILE.exec(name);
      return steps !== null && !names.includes(`apply-${steps[1]}.json`);
    });
    await Promise.all(gone.map((name) => rm(join(folder, name), { force: true })));
  } finally {
    await release();
  }
}
