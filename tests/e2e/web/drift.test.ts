import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiCaller } from '../../support/sandbox-client.ts';
import { openWithStaging } from './support-window.ts';

/*
 * Drift watch in the real window: `npm run web` and a small account on a sandbox of its own,
 * added as the profile "Staging". Watched, then changed through the API directly, then checked
 * on demand (not after the watcher's 15 minutes): the notice shows, the Drift view names the
 * change, and Accept leaves no drift.
 */

const KEY = 'e2e-drift';
let app: Awaited<ReturnType<typeof openWithStaging>>;
let policyId: string;
const staging = () => apiCaller(app.sandbox.url, KEY);

beforeAll(async () => {
  app = await openWithStaging(KEY);
  const created = await staging()('POST', '/ip_policies', { description: 'office' });
  policyId = (created.body as { id: string }).id;
}, 60_000);

afterAll(() => app?.close());

it('watches an account, tells a change made outside Burrow, shows it, and accepts it', async () => {
  const { page } = app;
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
