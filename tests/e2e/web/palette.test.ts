import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  axeViolations,
  invokeFrom,
  openWindow,
  screenshot,
  type WebWindow,
} from './support-window.ts';

/*
 * The command palette in Chromium against `npm run web` and its Local sandbox, by keyboard
 * alone: an IP policy found by its name and opened, a demo agent restarted through core.
 */

let window: WebWindow;
let page: Page;

const palette = () => page.getByRole('combobox', { name: /^Search/ });

async function search(text: string, option: RegExp): Promise<void> {
  await page.keyboard.press('Control+k');
  await palette().waitFor();
  await page.keyboard.type(text);
  await page.getByRole('option', { name: option, selected: true }).waitFor();
}

beforeAll(async () => {
  window = await openWindow({ width: 1280, height: 800 });
  page = window.page;
  await page.getByRole('row', { name: 'build-box', exact: true }).waitFor({ timeout: 30_000 });
}, 60_000);

afterAll(() => window?.close());

it('finds an IP policy by its name and opens it', async () => {
  const { id } = (await invokeFrom(page, 'api.ipPolicies.create', {
    body: { description: 'Build farm egress' },
  })) as { id: string };
  await search('farm egr', /^Build farm egress/);
  // The combobox, its listbox and the count's live region as axe reads them.
  expect(await axeViolations(page, 'palette')).toEqual([]);
  if (process.env.BURROW_SCREENSHOTS === '1')
    for (const [width, height, colorScheme] of [
      [1280, 800, 'light'],
      [800, 600, 'dark'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await screenshot(page, `palette-${width}x${height}-${colorScheme}`);
    }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Build farm egress' }).waitFor();
  expect(page.url()).toContain(`/ip-policies/ipPolicies/${id}`);
}, 30_000);

it('restarts an agent by keyboard only', async () => {
  // Back to Sessions the way a screen's keys go: "g" then its letter.
  await page.keyboard.type('gs');
  const row = page.getByRole('row', { name: 'build-box', exact: true });
  await row.waitFor();
  await search('restart build', /^Restart build-box/);
  await page.keyboard.press('Enter');
  await row.getByText('Restarting…').waitFor({ timeout: 15_000 });
  await page
    .getByRole('status')
    .filter({ hasText: 'Restart sent to build-box' })
    .waitFor({ timeout: 15_000 });
}, 30_000);
