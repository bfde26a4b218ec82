import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routeHref, SCREENS } from '../../../shared/app/routes.ts';
import { hrefOf } from '../../../renderer/src/resources/kinds/kind-shape.ts';
import { KINDS } from '../../../renderer/src/resources/kinds/kind-list.ts';
import { axeViolations, openWindow, screenshot, type WebWindow } from './support-window.ts';
import { wordingProblems } from './support-wording.ts';

/*
 * Axe on every screen of the window (every section and every tab of it), light and dark, at one
 * size, with a screenshot of each, and its wording read (`wordingProblems`: no sideways scroll, no
 * raw enumerated value, no ISO time, no id where a name belongs, no slipped casing), in Debian's Chromium against `npm run web` and its Local
 * sandbox (its demo resources fill the lists). One browser, one page: schemes are switched, not
 * started again. A file per size (the smallest the window supports, and a common one), so that
 * the two halves of the suite's slowest check run side by side.
 */

/**
 * Every address with a screen of its own: each kind's list (a section of kinds opens on its
 * first), and the sections that are no list (SSH's own screen is its keys and certificates).
 */
const ADDRESSES = [
  ...SCREENS.filter((s) => s.id === 'ssh' || !KINDS.some((k) => k.section === s.id)).map((s) =>
    routeHref({ screen: s.id }),
  ),
  ...KINDS.map((k) => hrefOf(k)),
];

/** The window's own parts beside the screen, the same on every address. */
const SHELL = ['.skip', '.topbar', '#sections'];

/** The file's test: axe and wording on every screen at `size`, light and dark. */
export function everyScreenPassesAxe(size: { width: number; height: number }): void {
  let app: WebWindow;
  let page: Page;

  beforeAll(async () => {
    app = await openWindow(size);
    page = app.page;
  }, 120_000);
  afterAll(() => app?.close());

  // Expressions as strings: this file is type-checked for Node, without the DOM's names.
  const go = (hash: string) => page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);

  /** Until the screen has loaded what it shows: a list's rows or its empty state. */
  async function settled(): Promise<void> {
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    if ((await page.locator('#content [data-list]').count()) > 0)
      await page.locator('#content .empty, #content tbody tr:not(.spacer)').first().waitFor();
  }

  it(`has no axe violation on any screen, light or dark, at ${size.width}×${size.height}`, async () => {
    const violations: string[] = [];
    const wording: string[] = [];
    // The shell (skip link, top bar, sidebar) is the same on every address: axe reads all of it
    // once per size and scheme, and the screen beside it on each address. Excluding the shell, not
    // including only the screen, keeps the rules about the whole page (one main, one h1, a title).
    const check = async (label: string, shell: 'with shell' | 'without shell') => {
      await screenshot(page, label);
      wording.push(...(await wordingProblems(page, label)));
      violations.push(...(await axeViolations(page, label, shell === 'with shell' ? [] : SHELL)));
    };

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const at = `${size.width}x${size.height}-${scheme}`;
      for (const [i, hash] of ADDRESSES.entries()) {
        await go(hash);
        await settled();
        await check(
          `${at}-${hash.slice(2).replace(/\//g, '-')}`,
          i ? 'without shell' : 'with shell',
        );
      }

      // A detail, a form and, where the sidebar is folded, its menu open.
      // SSH's own tabs, on one address.
      await go('#/ssh');
      await settled();
      const tabs = page.getByRole('tablist', { name: 'SSH' }).getByRole('tab');
      for (let i = 1; i < (await tabs.count()); i++) {
        await tabs.nth(i).click();
        await check(`${at}-ssh-tab-${i}`, 'without shell');
      }

      await go('#/edges/httpsEdges');
      await settled();
      await page.locator('#content tbody a').first().click();
      await page.locator('#content [data-page-heading]').waitFor();
      await check(`${at}-https-edge-detail`, 'without shell');

      await go('#/ip-policies');
      await settled();
      await page.getByRole('button', { name: 'New IP policy' }).click();
      await check(`${at}-ip-policy-form`, 'without shell');
      await page.getByRole('button', { name: 'Cancel' }).click();

      if (size.width < 900) {
        await page.getByRole('button', { name: 'Sections' }).click();
        await check(`${at}-sections-menu`, 'with shell');
        await page.keyboard.press('Escape');
      }
    }
    expect(violations).toEqual([]);
    expect(wording).toEqual([]);
  }, 300_000);
}
