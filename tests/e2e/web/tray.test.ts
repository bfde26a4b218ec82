import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { killAll, startAgent } from '../../support/agents.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import type { MonitorSnapshot } from '../../../shared/app/monitor.ts';
import { forEachLook, invokeFrom, openPage, screenshot, type WebPage } from './support-window.ts';

/*
 * The header's tray panel in Debian's Chromium against `npm run web`, with two profiles: the
 * Local sandbox (active, its demo agents) and a sandbox of the test's own with real agent
 * processes, polled every second. Waits are for what the page shows, bounded by a few polls.
 */

const KEY = 'tray-web-key-51c9';
let app: WebPage;
let sandbox: Sandbox;
let page: Page;
let token = '';
let agentsProfile = '';

/** Resolves once the monitor has polled the Agents profile twice more than now. */
async function twoPollsLater(): Promise<MonitorSnapshot['profiles'][number] | undefined> {
  const agents = async () =>
    ((await invokeFrom(page, 'sessions.snapshot')) as MonitorSnapshot).profiles.find(
      (p) => p.profileId === agentsProfile,
    );
  const before = (await agents())?.polls ?? 0;
  await expect.poll(async () => (await agents())?.polls ?? 0, POLLS).toBeGreaterThan(before + 1);
  return agents();
}

/** A few polls: the longest the page may take to show what a poll found. */
const POLLS = { timeout: 15_000 };

const agent = (name: string) =>
  startAgent(['--api-url', sandbox.url, '--authtoken', token, '--metadata', name]);

async function openTray() {
  const menu = page.getByRole('group', { name: 'Tray menu' });
  if (!(await menu.isVisible())) await page.getByRole('button', { name: /^Tray:/ }).click();
  return menu;
}

beforeAll(async () => {
  [app, sandbox] = await Promise.all([
    openPage({ pollIntervalMs: 1_000 }),
    startSandbox({ apiKey: KEY, rateLimit: 'off' }),
  ]);
  token = (await apiCaller(sandbox.url, KEY)('POST', '/credentials', {})).body.token;
  page = app.page;
  await page.goto(app.web.url);
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  const added = (await invokeFrom(page, 'profiles.add', {
    name: 'Agents',
    baseUrl: sandbox.url,
    apiKey: KEY,
  })) as { id: string };
  agentsProfile = added.id;
}, 60_000);

afterAll(async () => {
  killAll();
  await app?.close();
  await sandbox?.close();
});

it('has a section per profile, the active one first, each with its agents', async () => {
  const mine = agent('e2e-tray');
  await mine.session(0);
  const menu = await openTray();
  const headlines = menu.getByRole('button', { name: /^(Local sandbox|Agents): / });
  await expect
    .poll(() => headlines.allTextContents(), POLLS)
    .toEqual([
      expect.stringMatching(/^Local sandbox: \d+ agents? online/),
      'Agents: 1 agent online',
    ]);
  await menu.getByText(/^e2e-tray · /).waitFor(POLLS);
  // The Local sandbox's demo agents are listed too, under their own profile's headline.
  expect(await menu.locator('summary').count()).toBeGreaterThan(1);
  await headlines.last().click();
  expect(new URL(page.url()).hash).toMatch(/^#\/sessions\?profile=/);
}, 60_000);

it("counts every profile's online agents on its badge, and fits the window, its own items in view", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await agent('e2e-tray-count').session(0);
  const menu = await openTray();
  await menu.getByText(/^e2e-tray-count · /).waitFor(POLLS);
  // The badge is the sum of what each profile's headline says is online.
  const online = async () =>
    (await menu.getByRole('button', { name: /^(Local sandbox|Agents): / }).allTextContents())
      .map((line) => Number(/: (\d+) agents? online/.exec(line)?.[1] ?? NaN))
      .reduce((a, b) => a + b, 0);
  const badge = async () =>
    Number(
      await page
        .getByRole('button', { name: /^Tray:/ })
        .locator('.count')
        .textContent(),
    );
  await expect.poll(async () => (await badge()) === (await online()), POLLS).toBe(true);
  expect(await badge()).toBeGreaterThan(
    Number(
      /: (\d+)/.exec(
        (await menu.getByRole('button', { name: /^Local sandbox: / }).textContent()) ?? '',
      )?.[1],
    ),
  );
  for (const own of [
    menu.getByText('Profile', { exact: true }),
    menu.getByText('Pause notifications', { exact: true }),
    menu.getByRole('button', { name: 'Search…' }),
  ]) {
    const box = await own.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(800);
    await own.click({ trial: true });
  }
  await forEachLook(page, async (look) => {
    await openTray();
    await screenshot(page, `tray-${look}`);
  });
}, 60_000);

it("asks before a Stop with the agent's and profile's names, and stops only on yes", async () => {
  const stopped = agent('e2e-tray-stop');
  const id = await stopped.session(0);
  const stop = async () => {
    const menu = await openTray();
    const agentMenu = menu.locator('details').filter({ hasText: /^e2e-tray-stop · / });
    await agentMenu.locator('summary').click(POLLS);
    await agentMenu.getByRole('button', { name: 'Stop', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop this agent?' });
    await expect
      .poll(() => dialog.textContent())
      .toMatch(/e2e-tray-stop \(Agents, on 127\.0\.0\.1, \w+\) ends its session and exits/);
    return dialog;
  };

  await (await stop()).getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  // No stop was sent: the agent is still listed two polls later, its process running.
  expect((await twoPollsLater())?.sessions.map((s) => s.id)).toContain(id);
  expect(stopped.child.exitCode).toBeNull();

  await (await stop()).getByRole('button', { name: 'Stop agent' }).click();
  expect(await stopped.exit).toMatchObject({ code: expect.any(Number) });
}, 60_000);

it('says plainly when the browser refuses desktop notifications, and how to allow them', async () => {
  // A person who has not been asked yet answers the prompt with "Block", then allows Burrow in
  // the site's settings. Headless Chromium has no prompt to answer and no such setting (its shell
  // blocks every site, the full browser dismisses), so the page is given that person's answers.
  const ANSWER = 'test.notifications.answer';
  // A string, as the page runs it: the test's own types know no sessionStorage.
  await page.context().addInitScript(`{
    const answer = () => sessionStorage.getItem('${ANSWER}') ?? 'default';
    Object.defineProperty(Notification, 'permission', { get: answer });
    Notification.requestPermission = async () => {
      sessionStorage.setItem('${ANSWER}', 'denied');
      return answer();
    };
  }`);
  await page.reload();
  let menu = await openTray();
  await menu.getByRole('button', { name: 'Allow desktop notifications' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /blocks desktop notifications from Burrow\. To allow them, click the icon/ })
    .waitFor({ timeout: 10_000 });
  menu = await openTray();
  await menu
    .getByText(/blocks desktop notifications from Burrow\. To allow them, click the icon/)
    .waitFor({ timeout: 10_000 });
  expect(await menu.getByRole('button', { name: 'Allow desktop notifications' }).count()).toBe(0);

  await page.evaluate(`sessionStorage.setItem('${ANSWER}', 'granted')`);
  await page.reload();
  menu = await openTray();
  await menu.getByText('Desktop notifications are on.').waitFor({ timeout: 10_000 });
}, 30_000);
