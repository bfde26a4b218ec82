import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { osKeychain } from '../../../core/profiles/keychain.ts';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { killAll, startAgent } from '../../support/agents.ts';
import { watchProblems } from '../../support/chromium.ts';
import { filesUnder } from '../../integration/core/profiles/support.ts';
import {
  forEachLook,
  openPage,
  screenshot,
  watchIpc,
  type IpcTraffic,
  type WebPage,
} from './support-window.ts';

/*
 * A new user's first minutes, in Debian's Chromium against `npm run web` on a throwaway HOME:
 * the Local sandbox with its demo sessions and a word on what it is, a credential whose agent
 * command starts an agent (the token's dialog saying it connected), a real account added (a wrong key first), switched to, an abuse
 * report whose review shows by itself, and a rate-limit wait shown while the service answers
 * 429. One page, in order.
 */

const REMOTE_KEY = 'second-sandbox-key-4f9a2c';
let app: WebPage;
let remote: Sandbox;
let page: Page;
let ipc: IpcTraffic;
let problems: string[];

beforeAll(async () => {
  [app, remote] = await Promise.all([
    openPage({ pollIntervalMs: 1_000 }),
    // Reports reviewed in a second, so that the window has one to see change by itself.
    startSandbox({ apiKey: REMOTE_KEY, rateLimit: 'off', abuseReviewDelayMs: 1_000 }),
  ]);
  page = app.page;
  problems = watchProblems(page);
  ipc = watchIpc(page);
});

afterAll(async () => {
  killAll();
  await app?.close();
  await remote?.close();
});

it('lands on the Local sandbox with its demo sessions listed', async () => {
  await page.goto(app.web.url);
  await expect.poll(() => page.url()).not.toContain('token');
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  await page.getByRole('row').nth(3).waitFor({ timeout: 15_000 });
  const rows = await page.getByRole('row').count();
  expect(rows - 1).toBeGreaterThanOrEqual(3);
  expect(await page.getByRole('combobox', { name: 'Active profile' }).inputValue()).toBeTruthy();
  await expect
    .poll(() => page.getByRole('combobox', { name: 'Active profile' }).textContent())
    .toContain('Local sandbox');
  const intro = page.getByRole('region', { name: 'About the Local sandbox' });
  expect((await intro.textContent())?.replace(/\s+/g, ' ')).toContain(
    'a practice account that Burrow runs on this computer',
  );
  expect(await intro.getByRole('link', { name: 'Add your account' }).getAttribute('href')).toBe(
    '#/settings',
  );
});

it("shows a new credential's token with the agent command that uses it here, which works", async () => {
  await page.getByRole('link', { name: 'Credentials', exact: true }).click();
  await page.getByRole('button', { name: 'New tunnel credential' }).click();
  await page.getByRole('button', { name: 'Create tunnel credential' }).click();
  const status = page.getByRole('dialog').getByRole('status');
  expect(await status.textContent()).toContain('Waiting for your agent…');
  const command = (await page.getByLabel('Agent command', { exact: true }).textContent()) ?? '';
  const token = (await page.getByLabel('Token', { exact: true }).textContent()) ?? '';
  expect(command).toContain(`--authtoken ${token}`);
  const args = /^npm run agent -- (.+)$/.exec(command)?.[1]?.split(' ') ?? [];
  expect(args[0]).toBe('--api-url');
  // The line as printed, run as `npm run agent` runs it: its session comes online.
  const agent = startAgent(args);
  await agent.session(0);
  // The dialog sees it at the monitor's next poll of the profile: no polling of its own.
  await status.filter({ hasText: /^Connected: \S/ }).waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Done' }).click();
});

it('adds a second sandbox as a profile: the wrong key shows its code, the right one is kept', async () => {
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Name').fill('Staging');
  await page.getByLabel('API address').fill(remote.url);
  await page.getByLabel('API key').fill('not-the-right-key');
  await page.getByRole('button', { name: 'Add profile' }).click();
  const problem = page.getByRole('alert').filter({ hasText: 'ERR_SERVICE_203' });
  await problem.waitFor();
  expect(await problem.textContent()).toMatch(/op_\w+/);

  await page.getByLabel('API key').fill(REMOTE_KEY);
  await page.getByRole('button', { name: 'Add profile' }).click();
  await page.getByRole('button', { name: 'Switch to Staging' }).waitFor();
  await page.getByRole('button', { name: 'Switch to Staging' }).click();
  await expect
    .poll(() => page.getByRole('row', { name: /Staging/ }).textContent())
    .toContain('active');
  // Settings with two profiles, a shot at each section below the fold: the screen scrolls inside
  // the window, so a full-page shot would show only its top.
  await forEachLook(page, async (look) => {
    for (const section of ['Profiles', 'Alerts', 'Drift', 'Updates']) {
      await page
        .getByRole('heading', { name: section, level: 2 })
        .evaluate((h) => h.scrollIntoView({ block: 'start' }));
      await screenshot(page, `settings-${section.toLowerCase()}-${look}`);
    }
  });
  // Playwright's default size, which the steps after this one were written against.
  await page.setViewportSize({ width: 1280, height: 720 });
});

it("shows an abuse report's review as the service makes it, without a Refresh", async () => {
  await page.getByRole('link', { name: 'Abuse reports', exact: true }).click();
  await page.getByText('No filed abuse reports yet.').waitFor();
  await page.getByRole('button', { name: 'New abuse report' }).click();
  await page.getByRole('textbox', { name: 'URL 1' }).fill('https://phish.example.net/login');
  await page.getByRole('button', { name: 'Create abuse report' }).click();
  const row = page.getByRole('row', { name: /abrp_/ });
  await row.getByRole('cell', { name: 'PENDING' }).waitFor();
  // The sandbox reviews it a second later; the list reads it again on its own.
  await row.getByRole('cell', { name: 'Processed', exact: true }).waitFor({ timeout: 15_000 });
  expect(await page.getByRole('button', { name: 'Refresh' }).count()).toBe(0);
});

it('shows the rate-limit wait while the service answers 429', async () => {
  remote.faults.add({
    kind: 'rateLimit',
    retryAfterSeconds: 3,
    count: 1,
    pathPrefix: '/tunnel_sessions',
  });
  await page.getByRole('link', { name: 'Sessions', exact: true }).click();
  // The screen shows what the monitor polls: its next poll (every second here) meets the 429.
  await page.getByText(/Rate limited, retrying in \d+ s/).waitFor({ timeout: 10_000 });
  // Then the next poll goes through, and the fleet of both profiles is listed again.
  await page
    .getByText(/Rate limited/)
    .first()
    .waitFor({ state: 'hidden', timeout: 15_000 });
  await page.getByRole('row', { name: /Local sandbox \d+ agents?/ }).waitFor({ timeout: 15_000 });
});

it('survives a reload on its session cookie, the token gone from the address', async () => {
  await page.reload();
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  await page.getByRole('row', { name: /Local sandbox \d+ agents?/ }).waitFor({ timeout: 15_000 });
  expect(page.url()).not.toContain('token');
  expect(problems).toEqual([]);
});

it('in a tab without the token, says how to get in instead of calling anything', async () => {
  const stranger = await app.browser.newPage();
  await stranger.goto(new URL(app.web.url).origin);
  await expect.poll(() => stranger.getByRole('alert').textContent()).toContain('npm run web');
  await stranger.close();
});

it('leaves no API key in any IPC answer, log line or file outside the keyring', async () => {
  const local = /"id":"(prf_\w+)","name":"Local sandbox"/.exec(ipc.answered.join('\n'));
  expect(local).not.toBeNull();
  // The app's own keychain entry for the Local sandbox, read the way core reads it.
  const localKey = await (await osKeychain()).get(local?.[1] ?? '');
  expect(localKey).toMatch(/^[\w-]{40,}$/);
  const secrets = [REMOTE_KEY, localKey ?? ''];
  const wire = ipc.answered.join('\n');
  const files = (await filesUnder(app.web.home)).filter(({ file }) => !file.includes('/keyrings/'));
  expect(files.some(({ file }) => file.endsWith('settings.json'))).toBe(true);
  for (const secret of secrets) {
    expect(wire).not.toContain(secret);
    expect(app.web.output()).not.toContain(secret);
    for (const { file, text } of files) expect(text.includes(secret), file).toBe(false);
  }
});
