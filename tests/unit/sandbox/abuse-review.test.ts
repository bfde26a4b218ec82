import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewed, reviewHostname, TimedAbuseReview } from '../../../sandbox/abuse/review.ts';
import { defaultAccounts } from '../../../sandbox/accounts.ts';
import type { AbuseReportRecord } from '../../../sandbox/store/records.ts';
import { Store } from '../../../sandbox/store/store.ts';
import { systemClock } from '../../../shared/node/clock.ts';

const report = (hostnames: string[], created_at = new Date().toISOString()): AbuseReportRecord => ({
  id: `abrp_${Math.random().toString(36).slice(2)}`,
  created_at,
  urls: hostnames.map((h) => `https://${h}/`),
  status: 'PENDING',
  hostnames: hostnames.map((hostname) => ({ hostname, status: 'PENDING' })),
});

describe('the review rule', () => {
  it.each([
    ['evil.example.com', 'BANNED'],
    ['xn--80ak6aa92e.com', 'BANNED'],
    ['unban.example.com', 'UNBANNED'],
    ['please-UNBAN-me.example.com', 'UNBANNED'],
    ['www.unban.example.com', 'BANNED'],
    ['example.com.', 'BANNED'],
    ['192.0.2.1', 'IGNORE'],
    ['[::1]', 'IGNORE'],
    ['localhost', 'IGNORE'],
    ['a.b.localhost', 'IGNORE'],
    ['x.test', 'IGNORE'],
    ['x.example', 'IGNORE'],
    ['x.invalid', 'IGNORE'],
    ['x.invalid.', 'IGNORE'],
    ['intranet', 'IGNORE'],
  ] as const)('%s → %s', (hostname, action) => {
    expect(reviewHostname(hostname)).toBe(action);
  });

  it('PROCESSED when every hostname was acted on, PARTIALLY_PROCESSED when any was ignored', () => {
    expect(reviewed(report(['a.com', 'unban.b.com'])).status).toBe('PROCESSED');
    expect(reviewed(report(['a.com', 'b.test'])).status).toBe('PARTIALLY_PROCESSED');
    expect(reviewed(report(['b.test'])).status).toBe('PARTIALLY_PROCESSED');
  });
});

describe('TimedAbuseReview', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(delayMs: number) {
    vi.useFakeTimers();
    const store = new Store(defaultAccounts('key'));
    const [name, account] = [...store.accounts][0] ?? [];
    if (!name || !account) throw new Error('no default account');
    const reports = account.collections.abuseReport;
    // Every change to the store is a write, whatever makes it.
    const insert = (r: AbuseReportRecord) => void store.write(() => reports.insert(r));
    return { name, reports, insert, review: new TimedAbuseReview(store, delayMs, systemClock) };
  }

  it('reviews a report after the delay, and only then', () => {
    const { name, reports, insert, review } = setup(1_000);
    const r = report(['a.com']);
    insert(r);
    review.submitted(name, r.id);
    vi.advanceTimersByTime(999);
    expect(reports.get(r.id)?.status).toBe('PENDING');
    vi.advanceTimersByTime(1);
    expect(reports.get(r.id)?.status).toBe('PROCESSED');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resume() schedules PENDING reports for what is left of their delay from created_at', () => {
    const { name, reports, insert, review } = setup(10_000);
    const old = report(['old.com'], new Date(Date.now() - 60_000).toISOString());
    const recent = report(['recent.com'], new Date(Date.now() - 4_000).toISOString());
    const done = { ...report(['done.com']), status: 'PROCESSED' as const };
    for (const r of [old, recent, done]) insert(r);
    review.resume();
    expect(review.waiting).toBe(2);
    vi.advanceTimersByTime(0);
    expect(reports.get(old.id)?.status).toBe('PROCESSED');
    vi.advanceTimersByTime(5_999);
    expect(reports.get(recent.id)?.status).toBe('PENDING');
    vi.advanceTimersByTime(1);
    expect(reports.get(recent.id)?.status).toBe('PROCESSED');
    // A report reviewed once stays as it was reviewed.
    expect(reports.get(done.id)).toBe(done);
    review.submitted(name, done.id);
    vi.runAllTimers();
    expect(reports.get(done.id)).toBe(done);
  });

  it('close() clears every timer, and nothing is scheduled after it', () => {
    const { name, reports, insert, review } = setup(1_000);
    const r = report(['a.com']);
    insert(r);
    review.submitted(name, r.id);
    expect(vi.getTimerCount()).toBe(1);
    review.close();
    expect(vi.getTimerCount()).toBe(0);
    review.submitted(name, r.id);
    review.resume();
    expect(vi.getTimerCount()).toBe(0);
    vi.runAllTimers();
    expect(reports.get(r.id)?.status).toBe('PENDING');
  });
});
