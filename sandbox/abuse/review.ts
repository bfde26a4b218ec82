/**
 * The sandbox's stand-in for the platform's abuse desk: a deterministic review that a test or a
 * demo can predict from the hostnames alone (the rule is in docs/sandbox.md, "Abuse reports").
 */
import { isIP } from 'node:net';
import type { AbuseReportHostname } from '../../shared/api/kinds/abuse-reports.ts';
import { MAX_TIMER_MS, type Clock, type Timer } from '../../shared/node/clock.ts';
import type { AbuseReview } from '../resources/context.ts';
import type { AbuseReportRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

export const DEFAULT_ABUSE_REVIEW_DELAY_MS = 30_000;
/** The longest delay taken: setTimeout's limit, 24.8 days (a longer one is no review at all). */
export const MAX_ABUSE_REVIEW_DELAY_MS = MAX_TIMER_MS;

function checkAbuseReviewDelay(ms: number): number {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_ABUSE_REVIEW_DELAY_MS)
    throw new Error(
      `abuseReviewDelayMs must be an integer from 0 to ${MAX_ABUSE_REVIEW_DELAY_MS}, not ${ms}`,
    );
  return ms;
}

/** Special-use names (RFC 2606, RFC 6761): nothing the platform serves lives under them. */
const RESERVED_TLDS = new Set(['test', 'example', 'invalid', 'localhost']);

type Action = Exclude<AbuseReportHostname['status'], 'PENDING'>;

/**
 * The action for one hostname, first match wins: IGNORE for what the platform cannot act on (an
 * IP address, a single label, a reserved TLD); UNBANNED when the first label contains `unban`;
 * BANNED otherwise.
 */
export function reviewHostname(hostname: string): Action {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  const bareAddress = name.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bareAddress) !== 0 || labels.length < 2 || RESERVED_TLDS.has(labels.at(-1) ?? ''))
    return 'IGNORE';
  if ((labels[0] ?? '').includes('unban')) return 'UNBANNED';
  return 'BANNED';
}

/** PROCESSED when every hostname was acted on; PARTIALLY_PROCESSED when any was ignored. */
export function reviewed(report: AbuseReportRecord): AbuseReportRecord {
  const hostnames = report.hostnames.map((h) => ({ ...h, status: reviewHostname(h.hostname) }));
  const ignored = hostnames.some((h) => h.status === 'IGNORE');
  return { ...report, hostnames, status: ignored ? 'PARTIALLY_PROCESSED' : 'PROCESSED' };
}

/**
 * Reviews each report `delayMs` after its `created_at`, through the store (so the outcome is in
 * the data file). `resume()` picks up the reports a data file left PENDING; `close()` cancels
 * every review still waiting. Its waits are `clock`'s; how long a report has waited is read from
 * the wall clock, as `created_at` was written by it.
 */
export class TimedAbuseReview implements AbuseReview {
  private readonly timers = new Map<string, Timer>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly delayMs: number,
    private readonly clock: Pick<Clock, 'setTimer'>,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    checkAbuseReviewDelay(delayMs);
  }

  submitted(account: string, reportId: string): void {
    this.schedule(account, reportId, this.delayMs);
  }

  /** Schedules every PENDING report of the store for what is left of its delay. */
  resume(): void {
    const now = Date.now();
    for (const [name, account] of this.store.accounts)
      for (const report of account.collections.abuseReport.values())
        if (report.status === 'PENDING')
          this.schedule(name, report.id, Date.parse(report.created_at) + this.delayMs - now);
  }

  /** How many reviews are waiting. */
  get waiting(): number {
    return this.timers.size;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  private schedule(account: string, reportId: string, inMs: number): void {
    if (this.closed) return;
    const key = `${account}\n${reportId}`;
    this.timers.get(key)?.cancel();
    const timer = this.clock.setTimer(
      () => {
        this.timers.delete(key);
        this.review(account, reportId);
      },
      Math.max(0, inMs),
    );
    this.timers.set(key, timer);
  }

  private review(accountName: string, reportId: string): void {
    const reports = this.store.accounts.get(accountName)?.collections.abuseReport;
    const report = reports?.get(reportId);
    if (!reports || report?.status !== 'PENDING') return;
    this.store
      .write(() => reports.replace(reviewed(report)))
      .catch((error: unknown) =>
        this.log(
          `abuse review of ${reportId}: could not save (it stays PENDING until the next start): ${String(error)}`,
        ),
      );
  }
}
