import type { Locator, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CA_PEM } from '../../unit/shared/api/fixtures.ts';
import { openWindow, selectListed, shootEverywhere, type WebWindow } from './support-window.ts';

/*
 * The forms against `npm run web` and its Local sandbox, in Debian's Chromium: every problem at
 * once and fixed before the save, a dirty form that asks before Escape drops it, and the
 * failover dialog, which neither overflows sideways nor offers a failover as its own child.
 */

let app: WebWindow;
let page: Page;

beforeAll(async () => {
  app = await openWindow({ width: 1280, height: 800 });
  page = app.page;
}, 120_000);
afterAll(() => app?.close());

/** Screenshots of what is on screen at both sizes, light and dark, and axe on each. */
async function shoot(name: string) {
  expect(await shootEverywhere(page, name)).toEqual([]);
}

/** Whether anything in the dialog's form reaches past the form's right edge, or scrolls sideways. */
const overflows = (dialog: Locator) =>
  dialog.evaluate((d) => {
    const edge = d.querySelector('form')?.getBoundingClientRect().right ?? 0;
    const past = [...d.querySelectorAll('form *')].filter(
      (e) => e.getBoundingClientRect().right > edge + 1,
    );
    return d.scrollWidth > d.clientWidth + 1 || past.length > 0;
  });

it('shows the problems of a TLS edge at once, in plain words, and saves once they are fixed', async () => {
  await app.go('Edges', 'TLS edges');
  await page.getByRole('button', { name: 'New TLS edge' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Description').fill('ü'.repeat(200));
  await dialog.getByRole('button', { name: 'Add hostport' }).click();
  await dialog.getByRole('button', { name: 'Add hostport' }).click();
  await dialog.getByRole('textbox', { name: 'Hostport 1' }).fill('app.example.com:443');
  await dialog.getByRole('textbox', { name: 'Hostport 2' }).fill('app.example.com');
  await dialog.getByRole('button', { name: 'Create TLS edge' }).click();

  const description = dialog.getByText(/^Description must be .*255 bytes/);
  const hostport = dialog.getByText(/^Hostport 2 must be "<host>:<port>"/);
  await description.waitFor();
  await hostport.waitFor();
  expect(
    await dialog.getByLabel('Description').evaluate((e) => e === e.ownerDocument.activeElement),
  ).toBe(true);
  await shoot('form-several-errors');

  await dialog.getByLabel('Description').fill('front door');
  await description.waitFor({ state: 'detached' });
  expect(await hostport.isVisible()).toBe(true);
  await dialog.getByRole('textbox', { name: 'Hostport 2' }).fill('app.example.com:8443');
  await hostport.waitFor({ state: 'detached' });
  await dialog.getByRole('button', { name: 'Create TLS edge' }).click();
  await page.getByRole('status').filter({ hasText: 'Created TLS edge' }).last().waitFor();
  await dialog.waitFor({ state: 'detached' });
}, 120_000);

it("shows the API's refusal of a TLS edge's module once, with its code, and saves once fixed", async () => {
  await app.go('Edges', 'Certificate authorities');
  const ca = await app.create('certificate authority', () =>
    page.getByLabel(/CA certificate/).fill(CA_PEM),
  );
  await app.go('Edges', 'TLS edges');
  const edge = await app.create('TLS edge');
  await page.getByRole('link', { name: edge }).click();
  await page.getByRole('button', { name: 'Set Mutual TLS' }).click();
  await selectListed(page.getByRole('combobox', { name: 'Trusted CAs to add' }), ca);
  await page.getByRole('dialog').getByRole('button', { name: 'Set Mutual TLS' }).click();
  const mutual = page.getByRole('article', { name: 'Mutual TLS' });
  await mutual.getByText('set', { exact: true }).waitFor();

  // Passing TLS through would leave mutual TLS blind: only the API knows, and says so once.
  await page.getByRole('button', { name: 'Set TLS termination' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Terminate at').selectOption('upstream');
  await dialog.getByRole('button', { name: 'Set TLS termination' }).click();
  const alert = dialog.getByRole('alert');
  await alert.getByText(/ERR_SERVICE_\d+/).waitFor();
  // In the form's words where it has the field.
  expect(await alert.textContent()).toContain('when Terminate at is "upstream"');
  expect(await alert.getByRole('button', { name: 'Copy operation id' }).count()).toBe(1);
  expect(
    await page
      .getByRole('region', { name: 'Messages' })
      .getByText(/ERR_SERVICE/)
      .count(),
  ).toBe(0);
  await shoot('api-refusal');

  await dialog.getByLabel('Terminate at').selectOption('edge');
  await dialog.getByRole('button', { name: 'Set TLS termination' }).click();
  await page
    .getByRole('article', { name: 'TLS termination' })
    .getByText('set', { exact: true })
    .waitFor();
}, 120_000);

it("sets a route's circuit breaker once both of its problems are fixed", async () => {
  await app.go('Edges', 'HTTPS edges');
  const edge = await app.create('HTTPS edge');
  await page.getByRole('link', { name: edge }).click();
  await page.getByRole('button', { name: 'New route' }).click();
  await page.getByLabel('Match type').selectOption('path_prefix');
  await page.getByLabel(/^Match \(/).fill('/api');
  await page.getByRole('button', { name: 'Create route' }).click();
  const routes = page.getByRole('table', { name: `Routes of ${edge}` });
  const routeId = await routes.getByRole('row').nth(1).getByRole('cell').first().textContent();
  await page.getByRole('button', { name: `Modules of route ${routeId}` }).click();
  const panel = page.getByRole('region', { name: 'Modules of route /api' });

  await panel.getByRole('button', { name: 'Set Circuit breaker' }).click();
  const dialog = page.getByRole('dialog');
  const buckets = dialog.getByRole('spinbutton', { name: 'Buckets' });
  const threshold = dialog.getByRole('spinbutton', { name: 'Error threshold' });
  await buckets.fill('200');
  await threshold.fill('50');
  await dialog.getByRole('button', { name: 'Set Circuit breaker' }).click();
  await dialog.getByText('Buckets must be a whole number from 1 to 128').waitFor();
  await dialog.getByText('Error threshold must be a fraction between 0 and 1, like 0.5').waitFor();
  await shoot('circuit-breaker-errors');

  await buckets.fill('20');
  await threshold.fill('0.25');
  await dialog.getByRole('button', { name: 'Set Circuit breaker' }).click();
  await panel
    .getByRole('article', { name: 'Circuit breaker' })
    .getByText('set', { exact: true })
    .waitFor();
  expect(await panel.getByRole('article', { name: 'Circuit breaker' }).textContent()).toContain(
    '0.25',
  );
}, 120_000);

it('asks before Escape drops a form with changes', async () => {
  await app.go('IP policies');
  await page.getByRole('button', { name: 'New IP policy' }).click();
  const form = page.getByRole('dialog', { name: 'New IP policy' });
  await form.getByLabel('Description').fill('office');
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  expect(await form.getByLabel('Description').inputValue()).toBe('office');
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Discard' }).click();
  await form.waitFor({ state: 'detached' });
}, 60_000);

it('keeps the failover dialog inside its width, and never offers a failover as its own child', async () => {
  await app.go('Backends', 'HTTP response backends');
  const long = 'a backend whose description is long enough to fill the dialog twice over, at least';
  const child = await app.create('HTTP response backend', () =>
    page.getByRole('dialog').getByLabel('Description').fill(long),
  );
  const spare = await app.create('HTTP response backend');
  await app.go('Backends', 'Failover backends');
  const failover = await app.create('failover backend', async () => {
    await selectListed(page.getByRole('combobox', { name: 'Child backends to add' }), child);
    // Named as people know it, its description, not its id.
    await page.getByRole('button', { name: `Remove HTTP response backend '${long}'` }).waitFor();
    expect(await overflows(page.getByRole('dialog'))).toBe(false);
  });

  await page.getByRole('link', { name: failover }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  const pick = dialog.getByRole('combobox', { name: 'Child backends to add' });
  await pick.locator(`option[value="${spare}"]`).waitFor({ state: 'attached' });
  expect(await pick.locator(`option[value="${failover}"]`).count()).toBe(0);
  expect(await overflows(dialog)).toBe(false);
  await shoot('failover-dialog');
}, 120_000);
