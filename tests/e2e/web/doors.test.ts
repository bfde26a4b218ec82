import { spawn } from 'node:child_process';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtBurrow } from '../../support/built-cli.ts';
import type { WebApp } from './support-cli.ts';
import { openPage, shootEverywhere, type WebPage } from './support-window.ts';

/*
 * One system, several doors, as a person sees it: `npm run web` open in a tab, and `burrow
 * restart` typed in a terminal on the same account. The command runs inside the app, so the tab's
 * row says "Restarting…" from the app's own sessions service. The app polls only every ten
 * minutes here: a command that ran alone would show nothing until the next poll.
 */

/** Far beyond the test: any change the row shows came from the app itself, not a poll. */
const POLL_MS = 600_000;

let app: WebPage;
let page: Page;

beforeAll(async () => {
  app = await openPage({ pollIntervalMs: POLL_MS }, { viewport: { width: 1280, height: 800 } });
  page = app.page;
  await page.goto(app.web.url);
  await page.getByRole('row', { name: 'build-box', exact: true }).waitFor({ timeout: 30_000 });
}, 120_000);

afterAll(() => app?.close());

/** The built `burrow` in a process of its own, as a terminal of the same person runs it. */
function burrowBeside(app: WebApp, ...argv: string[]) {
  const child = spawn(process.execPath, [builtBurrow(), ...argv], {
    env: { ...process.env, HOME: app.home, XDG_CONFIG_HOME: '', BURROW_DATA_DIR: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

it("shows a terminal's burrow restart in the tab's row as it runs, and in Activity as the command line's", async () => {
  const row = page.getByRole('row', { name: 'build-box', exact: true });
  const run = burrowBeside(app.web, 'restart', 'build-box', '--verbose');
  await row.getByText('Restarting…').waitFor({ timeout: 30_000 });
  const done = await run;
  expect(done.code, done.stderr).toBe(0);
  expect(done.stderr).toContain('burrow: running inside the Burrow app');
  await row.getByText(/restarted · new session ts_/).waitFor({ timeout: 30_000 });

  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Activity', exact: true })
    .click();
  // The action, beside the notice of the agent's return: done, and by which door.
  const entry = page.getByRole('row').filter({ hasText: 'Restart build-box' });
  await entry.waitFor();
  expect(await entry.textContent()).toMatch(/done, from the command line/);
  // Activity with entries in it, as the other screens are seen at two sizes, light and dark.
  expect(await shootEverywhere(page, 'activity')).toEqual([]);
}, 120_000);
