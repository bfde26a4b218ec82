import type { Locator, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AgentsSnapshot } from '../../../shared/app/agents.ts';
import type { ProfilesState } from '../../../shared/app/ipc/profiles.ts';
import { killAll, startAgent } from '../../support/agents.ts';
import { axeViolations, invokeFrom, openPage, screenshot, type WebPage } from './support-window.ts';

/*
 * The Sessions screen in Debian's Chromium against `npm run web` as a person starts it: default
 * settings (a poll every 5 s), the Local sandbox with its demo agents, and real agent processes
 * beside them, on a credential of the Local account. Waits are for what the page shows.
 */

let app: WebPage;
let page: Page;
let local: { id: string; baseUrl: string };
let token = '';

/** A real agent process of the Local account, named by its metadata. */
const agent = (name: string) =>
  startAgent(['--api-url', local.baseUrl, '--authtoken', token, '--metadata', name]);

const row = (name: string): Locator => page.getByRole('row', { name, exact: true });

/** The agent core lists under `name`. */
async function agentNamed(name: string) {
  const snapshot = (await invokeFrom(page, 'agents.snapshot', local.id)) as AgentsSnapshot;
  const found = snapshot.profiles[0]?.agents.find((a) => a.name === name);
  if (!found) throw new Error(`no agent ${name}`);
  return found;
}

/** Default polls are 5 s apart (a busy account's are stretched). */
const POLL = 5_000;

beforeAll(async () => {
  app = await openPage(undefined, { viewport: { width: 1280, height: 800 } });
  page = app.page;
  await page.goto(app.web.url);
  await row('build-box').waitFor({ timeout: 30_000 });
  const profiles = (await invokeFrom(page, 'profiles.state')) as ProfilesState;
  const found = profiles.profiles.find((p) => p.kind === 'local');
  if (!found) throw new Error('no Local sandbox profile');
  local = found;
  token = (
    (await invokeFrom(page, 'api.credentials.create', { body: { description: 'e2e agents' } })) as {
      token: string;
    }
  ).token;
}, 90_000);

afterAll(async () => {
  killAll();
  await app?.close();
});

/*
 * Core confirms "offline" after two successful polls miss an agent (docs/monitor.md): at the
 * default 5 s, within 15 s of the kill (the two-miss rule is timed on a test clock in core's
 * tests; here the waits are backstops for a loaded machine, and `npm run bench:monitor` times it).
 */
it('keeps the row of an agent killed with -9, marked offline, and names it in a toast', async () => {
  const killed = agent('e2e-kill');
  await killed.session(0);
  await row('e2e-kill').waitFor({ timeout: 3 * POLL });
  killed.child.kill('SIGKILL');

  // A problem, not routine news: an alert.
  const toast = page.getByRole('alert').filter({ hasText: /e2e-kill went offline/ });
  await toast.waitFor({ timeout: 60_000 });
  // The toast and the row say it from the same confirmation.
  await row('e2e-kill').getByText('Offline', { exact: true }).waitFor({ timeout: 15_000 });
  await row('e2e-kill')
    .getByText(/^last seen /)
    .waitFor();
}, 60_000);

// That it shows in the click's own frame is pinned by tests/browser/sessions.test.ts; here the
// wait is a backstop.
it('shows Restarting… in the row on the click, then the new session in that row', async () => {
  const before = await agentNamed('build-box');
  const tr = await row('build-box').elementHandle();
  await row('build-box').getByRole('button', { name: 'Restart build-box', exact: true }).click();
  await row('build-box').getByText('Restarting…').waitFor({ timeout: 15_000 });

  await row('build-box')
    .getByText(/restarted · new session ts_/)
    .waitFor({ timeout: 30_000 });
  const after = await agentNamed('build-box');
  expect(after.id).toBe(before.id);
  expect(after.session.id).not.toBe(before.session.id);
  // The same row, not a new one at the top: the element the click was in is still there.
  expect(await tr?.evaluate((el) => el.isConnected && el.textContent)).toContain(after.session.id);
}, 90_000);

it('stops an agent after asking, and keeps its row as stopped', async () => {
  const stopped = agent('e2e-stop');
  await stopped.session(0);
  await row('e2e-stop').getByRole('button', { name: 'Stop e2e-stop' }).click({ timeout: 15_000 });
  await page
    .getByRole('dialog', { name: 'Stop e2e-stop?' })
    .getByRole('button', { name: 'Stop agent' })
    .click();
  await row('e2e-stop').getByText('Stopping…').waitFor({ timeout: 15_000 });
  expect(await stopped.exit).toMatchObject({ code: expect.any(Number) });
  await row('e2e-stop').getByText('Stopped', { exact: true }).waitFor({ timeout: 15_000 });
}, 90_000);

it('looks right at 800×600 and 1280×800, light and dark, with an offline agent and a timeline', async () => {
  await row('e2e-kill').getByText('Offline', { exact: true }).waitFor({ timeout: 15_000 });
  const build = await agentNamed('build-box');
  const { origin } = new URL(app.web.url);
  const violations: string[] = [];
  const axe = async (where: string) => {
    violations.push(...(await axeViolations(page, where)));
  };
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [width, height] of [
      [800, 600],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${origin}/#/sessions`);
      await row('e2e-kill').waitFor();
      if (width === 800)
        await row('build-box').getByRole('button', { name: 'Actions for build-box' }).waitFor();
      await screenshot(page, `sessions-${width}x${height}-${colorScheme}`);
      await axe(`list ${width}x${height} ${colorScheme}`);
      if (width === 800) {
        // The row's actions menu open on the last row, where it has the least room below.
        const last = page.getByRole('button', { name: /^Actions for / }).last();
        await last.click();
        await page.getByRole('menu').waitFor();
        await screenshot(page, `sessions-actions-${width}x${height}-${colorScheme}`);
        await page.keyboard.press('Escape');
      }

      await page.goto(`${origin}/#/sessions?agent=${build.id}`);
      const timeline = page.getByRole('img', { name: /^Last 24 hours of build-box: online/ });
      await timeline.waitFor();
      // Its day comes with the agents' state, which may land a moment after the page does.
      await expect
        .poll(() => timeline.getAttribute('aria-label'), { timeout: 10_000 })
        .toMatch(/\b1 restart\b/);
      await page.getByRole('button', { name: /^Restarted at / }).hover();
      await screenshot(page, `agent-timeline-${width}x${height}-${colorScheme}`);
      await axe(`agent ${width}x${height} ${colorScheme}`);
    }
  }
  expect(violations).toEqual([]);
}, 120_000);
