import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCREENS } from '../../../shared/routes.ts';
import { openWindow, SHOTS, type WebWindow } from './support-window.ts';

/*
 * Axe on every screen of the window, light and dark, with a screenshot of each, in Debian's
 * Chromium against `npm run web` and its Local sandbox (its demo resources fill the lists).
 */

let app: WebWindow;
let page: Page;

beforeAll(async () => {
  app = await openWindow({ width: 1200, height: 800 });
  page = app.page;
}, 120_000);
afterAll(() => app?.close());

it('has no axe violation on any screen, light or dark', async () => {
  const screens = SCREENS.flatMap((s) => [`#/${s.id}`]).concat([
    '#/edges/httpsEdges',
    '#/edges/certificateAuthorities',
    '#/backends/httpResponseBackends',
    '#/backends/tunnelGroupBackends',
    '#/credentials/sshCredentials',
    '#/ssh/sshUserCertificates',
    '#/ssh/sshHostCertificates',
  ]);
  const violations: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const hash of screens) {
      // Expressions as strings: this file is type-checked for Node, without the DOM's names.
      await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(`!document.querySelector('[aria-busy="true"]')`);
      const name = hash.slice(2).replace(/\//g, '-');
      await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png` });
      const result = await new AxeBuilder({ page }).analyze();
      for (const v of result.violations)
        violations.push(
          `${scheme} ${hash}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
        );
    }
    // A form and a detail, too.
    await page.evaluate(`window.location.hash = '#/ip-policies'`);
    await page.getByRole('button', { name: 'New IP policy' }).click();
    await page.screenshot({ path: `${SHOTS}/ip-policy-form-${scheme}.png` });
    const form = await new AxeBuilder({ page }).analyze();
    for (const v of form.violations) violations.push(`${scheme} form: ${v.id}`);
    await page.getByRole('button', { name: 'Cancel' }).click();
  }
  expect(violations).toEqual([]);
}, 240_000);
