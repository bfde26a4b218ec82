/**
 * The sandbox's abuse review (docs/sandbox.md, "Abuse reports"): reports are PENDING when filed
 * and reviewed a configurable delay after their creation, by a rule on each hostname; the outcome
 * is persisted, and reviews a data file left waiting are picked up again on start.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox/index.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { bin } from '../../support/bins.ts';
import { FakeClock } from '../../support/fake-clock.ts';
import { ACCOUNTS, expectError } from '../../integration/sandbox/support.ts';

const DELAY = 30_000;
const dataFile = () => join(mkdtempSync(join(tmpdir(), 'burrow-abuse-')), 'state.json');

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A sandbox whose reviews wait on a clock of the test's: time passes when the test says. */
async function sandboxWith(options: SandboxOptions) {
  const clock = new FakeClock();
  const sandbox = await startSandbox({ accounts: ACCOUNTS, rateLimit: 'off', clock, ...options });
  running.push(sandbox);
  return { sandbox, clock, api: apiCaller(sandbox.url, 'alice-key-1') };
}

type Api = ReturnType<typeof apiCaller>;

/** The report once its review, due now, has been written; a backstop of 10 s. */
async function reviewedReport(api: Api, id: string): Promise<ApiReply['body']> {
  let report: ApiReply['body'];
  await expect
    .poll(async () => (report = (await api('GET', `/abuse_reports/${id}`)).body).status, {
      timeout: 10_000,
    })
    .not.toBe('PENDING');
  return report;
}

const statusOf = async (api: Api, id: string) =>
  (await api('GET', `/abuse_reports/${id}`)).body.status;

const fileReport = async (api: Api, urls: string[]) => {
  const reply = await api('POST', '/abuse_reports', { urls });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

describe('abuse review', () => {
  it('PENDING when filed; after the delay, each hostname by the documented rule', async () => {
    const { api, clock } = await sandboxWith({ abuseReviewDelayMs: DELAY });
    const mixed = await fileReport(api, [
      'https://phish.example.com/login',
      'http://PHISH.example.com/other',
      'https://unban-me.example.net/',
      'https://myunbanned.example.org/x',
      'https://deep.unban.example.org/',
      'http://203.0.113.7/payload',
      'http://[2001:db8::1]:8080/',
      'https://site.test/',
      'https://docs.example/',
      'https://nothing.invalid/',
      'http://localhost:3000/',
      'http://app.localhost/',
      'http://intranet/',
    ]);
    expect(mixed.status).toBe('PENDING');
    expect(new Set(mixed.hostnames.map((h: { status: string }) => h.status))).toEqual(
      new Set(['PENDING']),
    );
    expect((await api('GET', `/abuse_reports/${mixed.id}`)).body.status).toBe('PENDING');
    const acted = await fileReport(api, ['https://bad.example.com/', 'https://unban.example.com/']);
    const ignored = await fileReport(api, ['https://a.test/', 'http://127.0.0.1/']);

    // Not a moment before its time.
    await clock.advance(DELAY - 1);
    expect(await statusOf(api, mixed.id)).toBe('PENDING');
    await clock.advance(1);
    const done = await reviewedReport(api, mixed.id);
    expect(done).toEqual({
      ...mixed,
      status: 'PARTIALLY_PROCESSED',
      hostnames: [
        { hostname: 'phish.example.com', status: 'BANNED' },
        { hostname: 'unban-me.example.net', status: 'UNBANNED' },
        { hostname: 'myunbanned.example.org', status: 'UNBANNED' },
        // Only the first label counts.
        { hostname: 'deep.unban.example.org', status: 'BANNED' },
        ...[
          '203.0.113.7',
          '[2001:db8::1]',
          'site.test',
          'docs.example',
          'nothing.invalid',
          'localhost',
          'app.localhost',
          'intranet',
        ].map((hostname) => ({ hostname, status: 'IGNORE' })),
      ],
    });
    expect(await reviewedReport(api, acted.id)).toMatchObject({
      status: 'PROCESSED',
      hostnames: [
        { hostname: 'bad.example.com', status: 'BANNED' },
        { hostname: 'unban.example.com', status: 'UNBANNED' },
      ],
    });
    expect(await reviewedReport(api, ignored.id)).toMatchObject({
      status: 'PARTIALLY_PROCESSED',
      hostnames: [
        { hostname: 'a.test', status: 'IGNORE' },
        { hostname: '127.0.0.1', status: 'IGNORE' },
      ],
    });
  });

  it('only for accounts with abuse reports (305), and only http(s) URLs (320)', async () => {
    const { sandbox, api } = await sandboxWith({ abuseReviewDelayMs: DELAY });
    expectError(
      await apiCaller(sandbox.url, 'carol-key-1')('POST', '/abuse_reports', {
        urls: ['https://x.com/'],
      }),
      'abuseReportsNotEnabled',
    );
    for (const url of ['ftp://x.com/', 'x.com', 'mailto:a@x.com', 'http://'])
      expectError(await api('POST', '/abuse_reports', { urls: [url] }), 'abuseReportUrl');
  });

  it('the outcome is saved; reviews still waiting resume on start, from created_at', async () => {
    const file = dataFile();
    // Reviewed before the restart: the outcome is in the data file.
    const first = await sandboxWith({ dataFile: file, abuseReviewDelayMs: DELAY });
    const early = await fileReport(first.api, ['https://early.example.com/']);
    await first.clock.advance(DELAY);
    const earlyDone = await reviewedReport(first.api, early.id);
    await first.sandbox.close();
    const second = await sandboxWith({ dataFile: file, abuseReviewDelayMs: 60_000 });
    expect((await second.api('GET', `/abuse_reports/${early.id}`)).body).toEqual({
      ...earlyDone,
      uri: `${second.sandbox.url}/abuse_reports/${early.id}`,
    });
    // Filed with a long delay, so still PENDING when the sandbox stops.
    const late = await fileReport(second.api, ['https://late.example.com/']);
    await second.sandbox.close();
    const pendingInFile = JSON.parse(readFileSync(file, 'utf8')).accounts.acme.abuseReport;
    expect(pendingInFile.find((r: { id: string }) => r.id === late.id).status).toBe('PENDING');

    // Same long delay, half of it gone: not due yet, so it stays PENDING.
    const third = await sandboxWith({ dataFile: file, abuseReviewDelayMs: 60_000 });
    await third.clock.advance(30_000);
    expect(await statusOf(third.api, late.id)).toBe('PENDING');
    await third.sandbox.close();

    // A shorter delay that has already run out since created_at: reviewed right after start,
    // with no time passing.
    const age = Date.now() - Date.parse(late.created_at);
    const fourth = await sandboxWith({ dataFile: file, abuseReviewDelayMs: Math.max(1, age - 1) });
    await fourth.clock.advance(0);
    expect(await reviewedReport(fourth.api, late.id)).toMatchObject({
      status: 'PROCESSED',
      hostnames: [{ hostname: 'late.example.com', status: 'BANNED' }],
    });
  });

  it('close() cancels the reviews still waiting: nothing is reviewed after it', async () => {
    const file = dataFile();
    const { sandbox, api, clock } = await sandboxWith({
      dataFile: file,
      abuseReviewDelayMs: DELAY,
    });
    const report = await fileReport(api, ['https://after-close.example.com/']);
    expect(clock.pendingTimers).toBe(1);
    await sandbox.close();
    expect(clock.pendingTimers).toBe(0);
    await clock.advance(DELAY);
    const saved = JSON.parse(readFileSync(file, 'utf8')).accounts.acme.abuseReport;
    expect(saved.find((r: { id: string }) => r.id === report.id).status).toBe('PENDING');
  });

  it('refuses a delay setTimeout cannot hold, and --abuse-review-delay that is not milliseconds', async () => {
    for (const abuseReviewDelayMs of [-1, 1.5, 2 ** 31])
      await expect(
        startSandbox({ accounts: ACCOUNTS, abuseReviewDelayMs }),
        String(abuseReviewDelayMs),
      ).rejects.toThrow(/abuseReviewDelayMs/);
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin('sandbox-cli'), '--abuse-review-delay', '30s'], {
        stdio: 'pipe',
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^sandbox: --abuse-review-delay must be milliseconds/);
  });
});
