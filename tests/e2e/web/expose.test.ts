import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killAll, startAgent } from '../../support/agents.ts';
import { watchProblems } from '../../support/chromium.ts';
import { openPage, screenshot, type WebPage } from './support-window.ts';

/*
 * "Expose a service" as a new user does it, in Chromium against `npm run web`: from the Edges
 * screen through the steps to Create, then the agent command shown, run as printed, and the
 * dialog saying the service is live once that agent is online. One flow.
 */

let app: WebPage;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openPage({ pollIntervalMs: 1_000 });
  page = app.page;
  problems = watchProblems(page);
});

afterAll(async () => {
  killAll();
  await app?.close();
});

it('creates an edge that an agent started with the shown command serves, and says it is live', async () => {
  await page.goto(app.web.url);
  await page.getByRole('link', { name: 'Edges', exact: true }).click();
  await page.getByRole('button', { name: 'Expose a service…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Expose a service' });
  await dialog.getByLabel('Name (required)').fill('shop');
  await dialog.getByLabel('Name (required)').press('Tab');
  // Beside the demo account's edges, on a host none of them serves.
  const hostport = dialog.getByLabel('Domain and port (required)');
  await expect.poll(() => hostport.inputValue()).toBe('shop.demo.burrow.test:443');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Review' }).click();
  const plan = dialog.getByRole('list', { name: 'Plan' });
  await plan.waitFor();
  expect(await plan.textContent()).toContain(
    "Create a tunnel group backend 'shop' (labels service=shop)",
  );
  await screenshot(page, 'expose-plan');
  await dialog.getByRole('button', { name: 'Create' }).click();

  const started = page.getByRole('dialog', { name: 'Start the agent' });
  const command = (await started.getByText(/^npm run agent /).textContent()) ?? '';
  expect(command).toMatch(/ --bind service=shop$/);
  const status = started.getByRole('status');
  expect(await status.textContent()).toContain('Waiting for an agent');
  // The line as printed: the credential's ACL lets it bind the label (a refusal exits 1).
  const agent = startAgent(/^npm run agent -- (.+)$/.exec(command)?.[1]?.split(' ') ?? []);
  await agent.session(0);
  await status
    .filter({ hasText: 'Your service is live at https://shop.demo.burrow.test' })
    .waitFor({ timeout: 15_000 });
  await screenshot(page, 'expose-live');
  await started.getByRole('button', { name: 'Done' }).click();

  // The list behind the dialog has read the new edge.
  await page.getByRole('link', { name: 'HTTPS edges' }).click();
  await page.getByRole('row', { name: /shop\.demo\.burrow\.test:443/ }).waitFor();
  expect(problems).toEqual([]);
});
