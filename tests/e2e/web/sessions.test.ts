import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { chromiumArgs, chromiumExecutable } from '../../support/chromium.ts';
import { killAll, startAgent } from '../../support/agents.ts';
import { startWebApp, type WebApp } from './support-cli.ts';

/*
 * Sessions in Debian's Chromium against `npm run web`: a sandbox of the test's own as the active
 * profile, polled every second (an interval only tests may set), and real agent processes. Waits are for what the page shows,
 * bounded by a few polls; nothing is timed.
 */

const KEY = 'sessions-web-key-7d1e';
let web: WebApp;
let sandbox: Sandbox;
let browser: Browser;
let page: Page;
let token = '';

/** A contract call from the page, over its own browser-mode session (as the renderer makes it). */
async function invoke(name: string, ...args: unknown[]): Promise<unknown> {
  const reply = await page.evaluate(
    async ([name, args]) => {
      const response = await fetch('/ipc/invoke', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, args }),
      });
      return (await response.json()) as { ok: boolean; value?: unknown; error?: unknown };
    },
    [name, args] as const,
  );
  if (!reply.ok) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
  return reply.value;
}

const agent = (name: string) =>
  startAgent(['--api-url', sandbox.url, '--authtoken', token, '--metadata', name]);

/** A few polls: the longest the page may take to show what a poll found. */
const POLLS = { timeout: 10_000 };

beforeAll(async () => {
  [web, sandbox, browser] = await Promise.all([
    startWebApp({ pollIntervalMs: 1_000 }),
    startSandbox({ apiKey: KEY, rateLimit: 'off' }),
    chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs }),
  ]);
  token = (await apiCaller(sandbox.url, KEY)('POST', '/credentials', {})).body.token;
  page = await browser.newPage();
  await page.goto(web.url);
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  const added = (await invoke('profiles.add', {
    name: 'Agents',
    baseUrl: sandbox.url,
    apiKey: KEY,
  })) as { id: string };
  await invoke('profiles.switch', added.id);
  await page.getByText('No agent is online for this profile.').waitFor(POLLS);
}, 60_000);

afterAll(async () => {
  killAll();
  await browser?.close();
  await web?.stop();
  await sandbox?.close();
});

it('shows an agent within a poll, and tells it went offline after kill -9', async () => {
  const killed = agent('e2e-kill');
  const id = await killed.session(0);
  await page.getByRole('row', { name: id }).waitFor(POLLS);
  process.kill(killed.pids[0] ?? 0, 'SIGKILL');
  await page
    .getByRole('status')
    .filter({ hasText: /Agents: e2e-kill went offline/ })
    .waitFor(POLLS);
  await page.getByRole('row', { name: id }).waitFor({ state: 'detached' });
}, 60_000);

it('stops an agent from the screen, after its confirmation, and the process ends', async () => {
  const stopped = agent('e2e-stop');
  const id = await stopped.session(0);
  await page.getByRole('button', { name: `Stop ${id}` }).click(POLLS);
  const dialog = page.getByRole('dialog', { name: 'Stop this agent?' });
  await dialog.getByRole('button', { name: 'Stop agent' }).click();
  expect(await stopped.exit).toMatchObject({ code: expect.any(Number) });
  await page.getByRole('row', { name: id }).waitFor({ state: 'detached', ...POLLS });
}, 60_000);

it('restarts an agent from the tray panel: "restarted", never "offline"', async () => {
  const restarted = agent('e2e-restart');
  const id = await restarted.session(0);
  await page.getByRole('row', { name: id }).waitFor(POLLS);
  await page.getByRole('button', { name: /^Tray:/ }).click();
  const menu = page.getByRole('group', { name: 'Tray menu' });
  await menu.getByText(/^e2e-restart · /).click();
  await menu.getByRole('button', { name: 'Restart', exact: true }).click();
  const newId = await restarted.session(1);
  await page
    .getByRole('status')
    .filter({ hasText: /Agents: e2e-restart restarted/ })
    .waitFor(POLLS);
  await page.getByRole('row', { name: newId }).waitFor(POLLS);
  expect(await page.getByText(/e2e-restart went offline/).count()).toBe(0);
}, 60_000);
