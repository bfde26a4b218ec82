import { expect, test } from '@playwright/test';
import { binary, withWindow } from './launch.ts';

/*
 * These run the packaged main process, preload and renderer together in real Electron. Where
 * Electron's binary cannot be downloaded (the machines this project is built on), they skip and
 * say why; everything they drive is also covered without Electron by the unit, integration and
 * browser suites.
 */
const whySkipped =
  "Electron's binary is not installed here (it cannot be downloaded); these run on a desktop once `npm start` has fetched it";
if (!binary) console.log(`electron suite skipped: ${whySkipped}`);
test.skip(!binary, whySkipped);

test('opens the main window with the app shell and no Node in the page', () =>
  withWindow(async (page) => {
    await expect(page.getByRole('heading', { name: 'Burrow' })).toBeVisible();
    await expect(page.getByText(/^v\d+\.\d+\.\d+/)).toBeVisible();
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
      'undefined',
    );
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe(
      'undefined',
    );
  }));

test('refuses to navigate the window away from the app', () =>
  withWindow(async (page) => {
    await page.evaluate(() => {
      (globalThis as unknown as { location: { href: string } }).location.href =
        'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toMatch(/^app:\/\/burrow\//);
  }));
