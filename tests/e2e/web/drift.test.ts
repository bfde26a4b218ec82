import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import { chromiumArgs, chromiumExecutable } from '../../support/chromium.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { startWebApp, type WebApp } from './support-cli.ts';
import { invokeFrom } from './support-window.ts';

/*
 * Drift watch in the real window: `npm run web` and a small account on a sandbox of its own,
 * added as the profile "Staging". Watched, then changed through the API directly, then checked
 * on demand (not after the watcher's 15 minutes): the notice shows, the Drift view names the
 * change, and Accept leaves no drift.
 */

const KEY = 'e2e-drift';
let web: WebApp;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let browser: Browser;
let page: Page;
let policyId: string;
const staging = () => apiCaller(sandbox.url, KEY);

beforeAll(async () => {
  [web, sandbox, browser] = await Promise.all([
    startWebApp({ sandboxRateLimit: 'off' }),
    startSandbox({ apiKey: KEY, rateLimit: 'off' }),
    chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs }),
  ]);
  const created = await staging()('POST', '/ip_policies', { description: 'office' });
  policyId = (created.body as { id: string }).id;
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(web.url);
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  await invokeFrom(page, 'profiles.add', { name: 'Staging', baseUrl: sandbox.url, apiKey: KEY });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  await sandbox?.close();
});

it('watches an account, tells a change made outside Burrow, shows it, and accepts it', async () => {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Drift' })
    .click();
  const profile = page.getByRole('region', { name: 'Staging', exact: true });
  await profile.getByRole('button', { name: 'Watch this account' }).click();
  const check = profile.getByRole('button', { name: 'Check now' });
  await check.waitFor();

  const edited = await staging()('PATCH', `/ip_policies/${policyId}`, {
    description: 'office, edited',
  });
  expect(edited.status).toBe(200);
  await check.click();

  const summary = '1 IP policy updated';
  await page
    .getByRole('status')
    .filter({ hasText: `Staging changed outside Burrow: ${summary}` })
    .waitFor();
  await profile.getByRole('heading', { name: summary, level: 3 }).waitFor();
  await expect(profile.textContent()).resolves.toMatch(/office, edited/);

  await profile.getByRole('button', { name: 'Accept', exact: true }).click();
  await profile.getByText('Accepted: the live account is the baseline now.').waitFor();
  await profile.getByText(/^No drift/).waitFor();
  expect(await profile.getByRole('button', { name: 'Accept', exact: true }).count()).toBe(0);
}, 30_000);
