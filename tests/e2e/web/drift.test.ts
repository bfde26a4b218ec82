import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiCaller } from '../../support/sandbox-client.ts';
import { invokeFrom, openWithStaging, shootEverywhere } from './support-window.ts';

/*
 * Drift watch in the real window: `npm run web` and a small account on a sandbox of its own,
 * added as the profile "Staging". Watched, then changed through the API directly, then checked
 * on demand (not after the watcher's 15 minutes): the notice shows, the Drift view names the
 * change, and Accept leaves no drift; a change that renames a resource is named alike in the
 * drift and in the plan that puts it back, and Put back ends with no drift.
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
  // A drift as a person meets it, at two sizes, light and dark.
  expect(await shootEverywhere(page, 'drift-change')).toEqual([]);

  await profile.getByRole('button', { name: 'Accept', exact: true }).click();
  await profile.getByText('Accepted: the live account is the baseline now.').waitFor();
  await profile.getByText(/^No drift/).waitFor();
  expect(await profile.getByRole('button', { name: 'Accept', exact: true }).count()).toBe(0);
}, 60_000);

it('puts back a change that renamed a resource, naming it alike, and ends with no drift', async () => {
  const { page } = app;
  const created = await staging()('POST', '/ip_policies', { description: 'office-network' });
  const id = (created.body as { id: string }).id;
  const profile = page.getByRole('region', { name: 'Staging', exact: true });
  const check = profile.getByRole('button', { name: 'Check now' });
  // Kept as the baseline, then renamed by a script.
  await check.click();
  await profile.getByRole('heading', { name: '1 IP policy created', level: 3 }).waitFor();
  await profile.getByRole('button', { name: 'Accept', exact: true }).click();
  await profile.getByText(/^No drift/).waitFor();
  await staging()('PATCH', `/ip_policies/${id}`, {
    description: 'office-network-changed-by-script',
  });
  await check.click();
  await profile.getByRole('heading', { name: '1 IP policy updated', level: 3 }).waitFor();
  const name = 'ipPolicy/office-network';
  await profile.getByText(name, { exact: true }).waitFor();

  await profile.getByRole('button', { name: 'Put back…' }).click();
  await profile.getByText(name, { exact: true }).waitFor();
  // More than half of Staging's window used, as a busy minute leaves it: keeping the baseline
  // a person waits on does not wait for it to drain. (The window's calls go to the active one.)
  const { profiles } = (await invokeFrom(page, 'profiles.state')) as {
    profiles: { id: string; name: string }[];
  };
  await invokeFrom(page, 'profiles.switch', profiles.find((p) => p.name === 'Staging')?.id);
  const used = async () =>
    (await invokeFrom(page, 'governor.state')) as { used: number; capacity: number };
  for (let window = await used(); window.used < window.capacity * 0.6; window = await used())
    await Promise.all(
      Array.from({ length: 10 }, () => invokeFrom(page, 'api.ipPolicies.get', { params: { id } })),
    );
  await profile.getByRole('button', { name: 'Apply to Staging…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apply', exact: true }).click();
  await profile
    .getByRole('status')
    .filter({ hasText: 'Put back: Staging is its baseline again (1 updated).' })
    .waitFor({ timeout: 20_000 });
  await profile.getByText(/^No drift/).waitFor();
  const drift = page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: /^Drift/ });
  expect(await drift.textContent()).not.toMatch(/\d/);
  const live = await staging()('GET', `/ip_policies/${id}`);
  expect(live.body).toMatchObject({ description: 'office-network' });
}, 60_000);
