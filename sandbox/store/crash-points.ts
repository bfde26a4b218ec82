/**
 * The steps of a write where a test may crash the process, in the order a write passes them.
 * `journal.torn` writes the first half of a batch and crashes: the torn last line of a crash
 * during the write itself.
 */
export const CRASH_POINTS = [
  'journal.beforeWrite',
  'journal.torn',
  'journal.afterWrite',
  'journal.afterSync',
  'snapshot.afterTempWrite',
  'snapshot.afterRename',
  'snapshot.afterJournalTruncate',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** `BURROW_SANDBOX_CRASH_AT=<point>[:<n>]`: a child process under test dies at the n-th pass (default 1). */
export const CRASH_AT_ENV = 'BURROW_SANDBOX_CRASH_AT';

function armed(): { point: CrashPoint; at: number } | undefined {
  const value = process.env[CRASH_AT_ENV];
  if (value === undefined || value === '') return undefined;
  const [point = '', at = '1'] = value.split(':');
  if (!(CRASH_POINTS as readonly string[]).includes(point) || !/^[1-9][0-9]*$/.test(at))
    throw new Error(
      `${CRASH_AT_ENV}: "${value}" is not <point>[:<n>] (${CRASH_POINTS.join(', ')})`,
    );
  return { point: point as CrashPoint, at: Number(at) };
}

const target = armed();
let passes = 0;

/**
 * A test seam: kills the process with SIGKILL, as `kill -9` would, when it reaches the armed
 * point for the armed time; `prelude` runs first (to leave a torn write behind). A no-op unless
 * the environment arms it.
 */
export async function crashPoint(
  point: CrashPoint,
  prelude?: () => Promise<unknown>,
): Promise<void> {
  if (target?.point !== point || ++passes !== target.at) return;
  await prelude?.();
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is not delivered synchronously everywhere; nothing may run after the crash.
  await new Promise(() => undefined);
}
