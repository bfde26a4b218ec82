import type { AgentRef, BulkAgentResult, BulkImpact, BulkResult } from '../../shared/app/fleet.ts';
import { ERRORS, type ErrorName } from '../../shared/api/errors/errors.ts';
import type { ActionResult } from '../../shared/app/sessions/actions.ts';
import { pastOf } from './impact.ts';

/** A failed result's reason in a few words, for the summary: "update checks off". */
const SHORT_REASONS: Partial<Readonly<Record<ErrorName, string>>> = {
  updateChecksDisabled: 'update checks off',
  noUpdateAvailable: 'nothing newer',
  alreadyUpdating: 'already updating',
  updatedAwaitingRestart: 'awaits a restart',
  agentTimeout: 'no answer',
  notFound: 'gone',
  restartUnsupportedOnWindows: 'Windows',
};
const SHORT_BY_CODE = new Map<string, string>(
  Object.entries(SHORT_REASONS).map(([name, words]) => [ERRORS[name as ErrorName].code, words]),
);

function shortReason(result: Extract<ActionResult, { ok: false }>): string {
  return (result.errorCode !== null && SHORT_BY_CODE.get(result.errorCode)) || result.reason;
}

/**
 * Runs `task` on each item, `parallel` at a time, in order of start; results in the items'
 * order. The client's governor paces the calls: this only keeps a bounded number waiting on it.
 */
export async function eachLimited<T, R>(
  items: readonly T[],
  parallel: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

/** "11 restarted, 1 failed (update checks off), 3 left out". */
export function bulkSummary(impact: BulkImpact, results: readonly BulkAgentResult[]): string {
  let ok = 0;
  const failed = new Map<string, number>();
  for (const { result } of results) {
    if (result?.ok) ok++;
    else if (result) failed.set(shortReason(result), (failed.get(shortReason(result)) ?? 0) + 1);
  }
  const parts = [`${ok} ${pastOf(impact.action)}`];
  for (const [reason, n] of failed) parts.push(`${n} failed (${reason})`);
  if (impact.leftOut.length > 0) parts.push(`${impact.leftOut.length} left out`);
  return parts.join(', ');
}

export function bulkResult(
  impact: BulkImpact,
  ran: readonly { agent: AgentRef; name: string; since: number | null; result: ActionResult }[],
): BulkResult {
  const results = [
    ...ran,
    ...impact.leftOut.map(({ agent, name }) => ({ agent, name, since: null, result: null })),
  ];
  return {
    action: impact.action,
    results,
    leftOut: impact.leftOut,
    summary: bulkSummary(impact, results),
  };
}
