import type { DriftStatus } from '../../../../shared/app/ipc/drift.ts';
import type { ApplyOutcome } from '../../../../shared/app/ipc/snapshots.ts';
import type { DiffWords } from '../snapshots/words.ts';

/*
 * The Drift screen's words. A drift's steps read from the baseline to the live account: a
 * "create" is something new in the live account, a "delete" something gone from it.
 */

export const DRIFT_WORDS: DiffWords = {
  verbs: { create: 'New', update: 'Changed', delete: 'Removed', unchanged: 'Unchanged' },
  counted: { create: 'new', update: 'changed', delete: 'removed', unchanged: 'unchanged' },
  from: 'Baseline',
  to: 'Live',
};

const KEPT_WHEN: Record<NonNullable<DriftStatus['baselineFrom']>, string> = {
  watch: 'when you started watching',
  apply: 'when Burrow applied a snapshot to it',
  accept: 'when you accepted a change',
};

/** ", when you accepted a change": how the baseline came to be, after when. */
export function keptWhen(from: DriftStatus['baselineFrom']): string {
  return from === null ? '' : `, ${KEPT_WHEN[from]}`;
}

/** "12 requests": what a check cost. */
export function requestCount(n: number): string {
  return `${n} request${n === 1 ? '' : 's'}`;
}

/** Why a changed secret stays as it is: the baseline holds a keyed hash of it, not the secret. */
export function secretChanged(name: string): string {
  return `The secret of ${name} changed: it cannot be put back, as the baseline keeps only a hash of it. Set it again by hand if needed.`;
}

/**
 * "at most 360 requests an hour": `percent` of a rate limit of `capacity` requests per
 * `windowMs`, averaged over an hour.
 */
export function hourlyShare(capacity: number, windowMs: number, percent: number): string {
  const perHour = Math.floor(((capacity * 3_600_000) / windowMs) * (percent / 100));
  return `at most ${perHour.toLocaleString('en')} requests an hour`;
}

/**
 * "Put back: Staging is its baseline again (1 updated, 1 deleted)."; `secretsLeft`, the changed
 * secrets it could not give back, are said to stay.
 */
export function putBackWords(
  profileName: string,
  { created, updated, deleted }: Extract<ApplyOutcome, { ok: true }>,
  secretsLeft: number,
): string {
  const did = [
    [created, 'created'],
    [updated, 'updated'],
    [deleted, 'deleted'],
  ].flatMap(([n, word]) => (n === 0 ? [] : [`${n} ${word}`]));
  const left =
    secretsLeft === 0
      ? ''
      : secretsLeft === 1
        ? ' The changed secret stays as it is.'
        : ` The ${secretsLeft} changed secrets stay as they are.`;
  return `Put back: ${profileName} is its baseline again${did.length > 0 ? ` (${did.join(', ')})` : ''}.${left}`;
}
