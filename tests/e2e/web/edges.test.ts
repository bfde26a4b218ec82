import type { Locator, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  axeViolations,
  openWindow,
  screenshot,
  selectListed,
  type WebWindow,
} from './support-window.ts';

/*
 * Every module of an HTTPS edge and of its route, set and removed through the window against
 * `npm run web` and its Local sandbox; axe on the modules and each module's dialog, light and
 * dark, with screenshots.
 */

const IDP_METADATA =
  '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"></md:EntityDescriptor>';

let app: WebWindow;
let page: Page;

beforeAll(async () => {
  app = await openWindow({ width: 1200, height: 900 });
  page = app.page;
}, 120_000);
afterAll(() => app?.close());

const go = (section: string, tab?: string) => app.go(section, tab);
const create = (singular: string) => app.create(singular);

async function noViolations(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshot(page, `${name}-${scheme}`);
    expect(await axeViolations(page, `${name} ${scheme}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const set = (panel: Locator, label: string, fill: (dialog: Locator) => Promise<unknown>) =>
  app.setModule(label, fill, panel);
const remove = (panel: Locator, label: string) => app.removeModule(label, panel);

it('sets and removes every module of an HTTPS edge and of its route', async () => {
  await go('Backends', 'HTTP response backends');
  const backend = await create('HTTP response backend');
  await go('IP policies');
  const policy = await create('IP policy');
  await go('Edges', 'HTTPS edges');
  const edge = await create('HTTPS edge');
  await page.getByRole('link', { name: edge }).click();

  const edgeModules = page.getByRole('region', { name: 'Modules' }).first();
  await set(edgeModules, 'TLS termination', (d) =>
    d.getByLabel('Minimum TLS version').selectOption('1.2'),
  );
  // An HTTPS edge always terminates at the edge: no choice of where.
  await page.getByRole('button', { name: 'Set TLS termination' }).click();
  expect(await page.getByRole('dialog').getByLabel('Terminate at').count()).toBe(0);
  await noViolations('https-edge-tls-termination-dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await remove(edgeModules, 'TLS termination');

  await page.getByRole('button', { name: 'New route' }).click();
  await page.getByLabel('Match type').selectOption('path_prefix');
  await page.getByLabel(/^Match \(/).fill('/hooks');
  await page.getByRole('button', { name: 'Create route' }).click();
  const routeId = await page
    .getByRole('table', { name: `Routes of ${edge}` })
    .getByRole('row')
    .nth(1)
    .getByRole('cell')
    .first()
    .textContent();
  await page.getByRole('button', { name: `Modules of route ${routeId}` }).click();
  const route = page.getByRole('region', { name: 'Modules of route /hooks' });

  await set(route, 'Backend', (d) =>
    selectListed(d.getByRole('combobox', { name: 'Backend' }), backend),
  );
  await set(route, 'IP restriction', (d) =>
    selectListed(d.getByRole('combobox', { name: 'IP policies to add' }), policy),
  );
  await set(route, 'Circuit breaker', (d) =>
    d.getByRole('spinbutton', { name: 'Buckets' }).fill('64'),
  );
  await set(route, 'Compression', async () => {});
  await set(route, 'Request headers', async (d) => {
    await d.getByRole('button', { name: /^Add/ }).first().click();
    await d.getByRole('textbox').first().fill('X-From');
    await d.getByRole('textbox').nth(1).fill('burrow');
  });
  await set(route, 'Response headers', async (d) => {
    await d.getByRole('button', { name: /^Add/ }).last().click();
    await d.getByRole('textbox').last().fill('Server');
  });
  await set(route, 'Webhook verification', (d) =>
    d.getByRole('combobox', { name: 'Provider' }).selectOption('sns'),
  );
  await set(route, 'Websocket-TCP converter', async () => {});
  await set(route, 'OAuth', (d) =>
    d.getByRole('combobox', { name: 'Provider' }).selectOption('google'),
  );
  // One auth module per route: the others wait, saying why.
  await expect.poll(() => route.getByRole('button', { name: 'Set SAML' }).isDisabled()).toBe(true);
  await noViolations('https-route-modules');
  await screenshot(page, 'https-route-modules-full-light', { fullPage: true });
  await remove(route, 'OAuth');
  const secret = 'oidc-client-s3cret';
  await set(route, 'OpenID Connect', async (d) => {
    await d.getByRole('textbox', { name: /Issuer URL/ }).fill('https://id.example.com');
    await d.getByRole('textbox', { name: /Client ID/ }).fill('app');
    await d.getByLabel(/^Client secret/).fill(secret);
  });
  // The API echoes the secret back: masked until asked, on screen and to axe alike.
  const oidc = route.getByRole('article', { name: 'OpenID Connect' });
  await oidc.getByText('https://id.example.com').waitFor();
  expect(await page.locator('body').innerText()).not.toContain(secret);
  await noViolations('route-oidc-masked');
  await oidc.getByRole('button', { name: 'Reveal client secret' }).click();
  await oidc.getByText(secret).waitFor();
  await remove(route, 'OpenID Connect');
  await route.getByRole('button', { name: 'Set SAML' }).click();
  await page
    .getByRole('dialog')
    .getByRole('textbox', { name: /IdP metadata/ })
    .fill(IDP_METADATA);
  await noViolations('route-saml-dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Set SAML' }).click();
  await route.getByRole('article', { name: 'SAML' }).getByText('set', { exact: true }).waitFor();
  for (const label of [
    'Backend',
    'IP restriction',
    'Circuit breaker',
    'Compression',
    'Request headers',
    'Response headers',
    'Webhook verification',
    'SAML',
    'Websocket-TCP converter',
  ])
    await remove(route, label);

  // A rule only the API knows: a backend a route still uses cannot go.
  await set(route, 'Backend', (d) =>
    selectListed(d.getByRole('combobox', { name: 'Backend' }), backend),
  );
  await go('Backends', 'HTTP response backends');
  await app.deleteFromList(backend);
  await page
    .getByRole('region', { name: 'Messages' })
    .getByText(/ERR_SERVICE_\d+/)
    .first()
    .waitFor();
}, 240_000);
