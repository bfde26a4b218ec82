import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { axeViolations, invokeFrom, openPage, screenshot, type WebPage } from './support-window.ts';

/*
 * The Snapshots screen in browser mode against `npm run web`: its Local sandbox (with the demo
 * resources) and a second, empty sandbox added as the profile "Staging". Export, a bad file,
 * plan, apply, then one profile planned against the other.
 */

const KEY = 'e2e-snapshots';
let app: WebPage;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let page: Page;
const staging = () => apiCaller(sandbox.url, KEY);

beforeAll(async () => {
  [app, sandbox] = await Promise.all([
    openPage(
      { sandboxRateLimit: 'off' },
      { viewport: { width: 1280, height: 800 }, acceptDownloads: true },
    ),
    startSandbox({ apiKey: KEY, rateLimit: 'off' }),
  ]);
  page = app.page;
  await page.goto(app.web.url);
  await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
  await invokeFrom(page, 'profiles.add', { name: 'Staging', baseUrl: sandbox.url, apiKey: KEY });
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Snapshots' })
    .click();
  await page.getByRole('heading', { name: 'Snapshots', level: 1 }).waitFor();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

const planForm = () => page.getByRole('form', { name: 'Plan a snapshot' });

it('exports, refuses a bad file, plans the export against Staging and applies it', async () => {
  const exportForm = page.getByRole('form', { name: 'Export a profile' });
  await exportForm.getByLabel('Profile').selectOption({ label: 'Local sandbox' });
  await exportForm.getByLabel('Include secrets').check();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    exportForm.getByRole('button', { name: 'Export…' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('local-sandbox.json');
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'burrow-snap-')), 'local-sandbox.json');
  await download.saveAs(file);
  await page
    .getByText(/^Downloaded \d+ resources as local-sandbox\.json\. It holds secrets/)
    .waitFor();
  const document = JSON.parse(await readFile(file, 'utf8')) as { containsSecrets: boolean };
  expect(document.containsSecrets).toBe(true);
  expect((await stat(file)).size).toBeGreaterThan(0);

  const form = planForm();
  const input = form.getByLabel('Snapshot file', { exact: true });
  await input.setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"burrow-snapshot","version":1'),
  });
  await expect
    .poll(() => page.getByRole('alert').textContent())
    .toMatch(/broken\.json is not JSON/);
  await expect(form.getByRole('button', { name: 'Plan', exact: true }).isDisabled()).resolves.toBe(
    true,
  );

  await input.setInputFiles(file);
  await form.getByText(/resources exported [\s\S]* from\s+Local sandbox, with secrets\./).waitFor();
  await form.getByLabel('With profile').selectOption({ label: 'Staging' });
  await form.getByRole('button', { name: 'Plan', exact: true }).click();
  await page.getByRole('heading', { name: 'local-sandbox.json → Staging' }).waitFor();
  const counts = (await page.getByLabel('Counts').textContent()) ?? '';
  const created = Number(/(\d+) to create/.exec(counts)?.[1]);
  expect(created).toBeGreaterThan(5);
  expect(counts).toMatch(/0 to update.*0 to delete.*0 unchanged/);

  await page.getByRole('button', { name: 'Apply to Staging…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
  await page
    .getByText(`Applied to Staging: ${created} created, 0 updated, 0 deleted, 0 unchanged.`)
    .waitFor({ timeout: 30_000 });
});

it('plans one profile against another: a field-by-field update, a create, a delete', async () => {
  // Staging drifts: a backend's body changed, a TLS edge gone, an IP policy of its own.
  const api = staging();
  const backends = (await api('GET', '/backends/http_response')).body.backends as {
    id: string;
  }[];
  await api('PATCH', `/backends/http_response/${backends[0]?.id}`, { body: 'Hello from before' });
  const edges = (await api('GET', '/edges/tls')).body.tls_edges as { id: string }[];
  await api('DELETE', `/edges/tls/${edges[0]?.id}`);
  await api('POST', '/ip_policies', { description: 'Staging only' });

  const form = planForm();
  await form.getByLabel('Another profile').check();
  await form.getByLabel('Source profile').selectOption({ label: 'Local sandbox' });
  await form.getByLabel('With profile').selectOption({ label: 'Staging' });
  await form.getByLabel('Also delete what Local sandbox does not have').check();
  await form.getByRole('button', { name: 'Plan', exact: true }).click();
  await page.getByRole('heading', { name: 'Local sandbox → Staging' }).waitFor();
  await expect
    .poll(() => page.getByLabel('Counts').textContent())
    .toMatch(/^1 to create\s*1 to update\s*1 to delete\s*\d+ unchanged$/);
  const changes = page.getByRole('table', { name: /^Changes to httpResponseBackend\// });
  await expect
    .poll(() => changes.getByRole('row').nth(1).textContent())
    .toMatch(/Body\s*Hello from before\s*→\s*\S/);
  // The pointer off the Plan button, so the shot shows it at rest.
  await page.mouse.move(0, 799);
  await screenshot(page, 'snapshots-plan');
  // Axe on the plan, its folded parts open, light and dark.
  for (const summary of await page.getByText('Show unchanged').all()) await summary.click();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page, scheme)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('button', { name: 'Apply to Staging…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
  await page
    .getByText(/Applied to Staging:\s+1 created, 1 updated, 1 deleted,\s+\d+ unchanged\./)
    .waitFor();

  await form.getByRole('button', { name: 'Plan', exact: true }).click();
  await page.getByText('Nothing to apply: Staging already matches.').waitFor();
});
