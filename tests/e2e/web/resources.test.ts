import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CA_PEM, PUBLIC_KEYS } from '../../unit/shared/api/fixtures.ts';
import {
  openWindow,
  screenshot,
  selectListed,
  shootEverywhere,
  watchIpc,
  type IpcTraffic,
  type WebWindow,
} from './support-window.ts';

/*
 * Every kind of resource through the window, in Debian's Chromium against `npm run web` and its
 * Local sandbox: created, edited and deleted by role and name as a person would, with the checks
 * the client makes before a call and the ones only the API can make. (Axe on every screen is in
 * accessibility.test.ts, in a window of its own, so the two run side by side.)
 */

let app: WebWindow;
let page: Page;
let ipc: IpcTraffic;

beforeAll(async () => {
  app = await openWindow({ width: 1200, height: 800 });
  page = app.page;
  ipc = watchIpc(page);
}, 120_000);
afterAll(() => app?.close());

const go = (section: string, tab?: string) => app.go(section, tab);
const create = (singular: string, fill?: () => Promise<unknown>) => app.create(singular, fill);

async function editDescription(id: string, description: string) {
  await page.getByRole('link', { name: id }).first().click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel('Description').fill(description);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('definition').filter({ hasText: description }).waitFor();
}

async function deleteOpen(id: string) {
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog');
  expect(await dialog.textContent()).toContain(id);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  // Deleted from its own page, the window goes back to the list once the service answered: a
  // toast of an earlier delete may still be showing.
  await page.waitForURL((url) => !url.hash.endsWith(`/${id}`));
  await page.getByRole('status').filter({ hasText: 'Deleted 1' }).last().waitFor();
}

/** Create, edit and delete one resource of a kind whose form needs `fill`. */
async function lifecycle(singular: string, fill: () => Promise<unknown> = async () => {}) {
  const id = await create(singular, fill);
  await editDescription(id, `edited ${singular}`);
  await deleteOpen(id);
  await expect.poll(() => page.getByRole('link', { name: id }).count()).toBe(0);
}

it('refuses a description too long in bytes before any call', async () => {
  await go('IP policies');
  await page.getByRole('button', { name: 'New IP policy' }).click();
  await page.getByLabel('Description').fill('ü'.repeat(200));
  const before = ipc.sent.length;
  await page.getByRole('button', { name: 'Create IP policy' }).click();
  await page.getByRole('dialog').getByText('must be at most 255 bytes', { exact: false }).waitFor();
  expect(ipc.sent.slice(before).some((body) => body.includes('ipPolicies.create'))).toBe(false);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Discard' }).click();
}, 120_000);

it('creates, edits and deletes an IP policy', () => lifecycle('IP policy'), 120_000);

it("edits an IP policy's rules in their rows, at both sizes, light and dark", async () => {
  await go('IP policies');
  const id = await create('IP policy', () => page.getByLabel('Description').fill('office'));
  await page.getByRole('link', { name: id }).click();
  const rules = page.getByRole('table', { name: "Rules of IP policy 'office'" });
  const cidr = rules.getByRole('textbox', { name: 'Address block (CIDR) of the new rule' });
  const description = rules.getByRole('textbox', { name: 'Description of the new rule' });
  for (const [block, action, words] of [
    ['10.0.0.0/8', 'allow', 'The office network, every floor'],
    ['10.9.0.0/16', 'deny', 'Guests, on the wireless network in the lobby and the meeting rooms'],
    ['2001:db8:abcd:12::/64', 'allow', ''],
  ] as const) {
    await cidr.fill(block);
    await rules.getByRole('combobox', { name: 'Action of the new rule' }).selectOption(action);
    await description.fill(words);
    await rules.getByRole('button', { name: 'Add rule' }).click();
    // Its row, not the new rule's field that still shows the block.
    await rules.getByRole('button', { name: `Edit the ${action} rule ${block}` }).waitFor();
  }
  // The last add's toast (each replaces the one before) would cover the new rule's row at 800×600.
  const dismiss = page.getByRole('status').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  // A block refused at its field, beside the rules as they read.
  await cidr.fill('10.0.0.0/40');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await rules.getByText(/^Address block \(CIDR\) must end with a prefix length/).waitFor();
  // At 800×600 the panel is below the policy's fields: shown as a person would scroll to it.
  await page.setViewportSize({ width: 800, height: 600 });
  await rules.scrollIntoViewIfNeeded();
  expect(await shootEverywhere(page, 'ip-policy-rules')).toEqual([]);
  // A rule in its row, its action changed: Save and Cancel, and what saving it does.
  await rules.getByRole('button', { name: 'Edit the deny rule 10.9.0.0/16' }).click();
  await rules
    .getByRole('combobox', { name: 'Action of the deny rule 10.9.0.0/16' })
    .selectOption('allow');
  await rules.getByText('Saving replaces the rule: its action is fixed.').waitFor();
  await page.setViewportSize({ width: 800, height: 600 });
  await rules.scrollIntoViewIfNeeded();
  expect(await shootEverywhere(page, 'ip-policy-rules-editing')).toEqual([]);
  await rules.getByRole('button', { name: 'Cancel editing the deny rule 10.9.0.0/16' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
  await page.setViewportSize({ width: 1200, height: 800 });
  await deleteOpen(id);
}, 120_000);

it('shows a new credential token once, and never again', async () => {
  await go('Credentials');
  await page.getByRole('button', { name: 'New tunnel credential' }).click();
  await page.getByRole('button', { name: 'Add ACL rule' }).click();
  await page.getByRole('textbox', { name: 'ACL rule 1' }).fill('bind:*.example.com');
  await page.getByRole('button', { name: 'Create tunnel credential' }).click();
  const token = (await page.getByLabel('Token', { exact: true }).textContent()) ?? '';
  expect(token.length).toBeGreaterThan(10);
  await screenshot(page, 'token-light');
  await page.getByRole('button', { name: 'Done' }).click();
  const id = (await page.getByRole('link', { name: /^cr_/ }).first().textContent()) ?? '';
  await page.getByRole('link', { name: id }).click();
  await page.getByRole('definition').filter({ hasText: 'bind:*.example.com' }).waitFor();
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await page.getByRole('definition').filter({ hasText: 'bind:*.example.com' }).waitFor();
  expect(await page.content()).not.toContain(token);
  // A detail's own id is no link to itself: edit it from the list.
  await go('Credentials');
  await editDescription(id, 'edited credential');
  await deleteOpen(id);
}, 120_000);

it('creates, edits and deletes an SSH credential', async () => {
  await go('Credentials', 'SSH credentials');
  await lifecycle('SSH credential', () => page.getByLabel('Public key').fill(PUBLIC_KEYS.ed25519));
}, 120_000);

it('refuses to delete a backend still in use, with the API code shown', async () => {
  await go('Backends', 'HTTP response backends');
  const child = await create('HTTP response backend', async () => {
    await page.getByLabel('Status code').fill('503');
    await page.getByLabel('Body').fill('down for maintenance');
  });
  await editDescription(child, 'edited child');
  await go('Backends', 'Failover backends');
  const failover = await create('failover backend', () =>
    selectListed(page.getByRole('combobox', { name: 'Child backends to add' }), child),
  );
  await go('Backends', 'HTTP response backends');
  await app.deleteFromList(child);
  const refusal = page.getByRole('alert').filter({ hasText: /ERR_SERVICE_\d+/ });
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/op_\w+/);
  await screenshot(page, 'backend-in-use-light');

  await go('Backends', 'Failover backends');
  await editDescription(failover, 'edited failover');
  await deleteOpen(failover);
  await go('Backends', 'HTTP response backends');
  await page.getByRole('link', { name: child }).click();
  await deleteOpen(child);
}, 120_000);

it('creates, edits and deletes a tunnel group backend', async () => {
  await go('Backends', 'Tunnel group backends');
  await lifecycle('tunnel group backend', async () => {
    await page.getByRole('button', { name: 'Add label' }).click();
    await page.getByRole('textbox', { name: 'Label key 1' }).fill('team');
    await page.getByRole('textbox', { name: 'Label value 1' }).fill('web');
  });
}, 120_000);

it('creates, edits and deletes an agent ingress, its NS targets copyable', async () => {
  await go('Agent ingresses');
  const id = await create('agent ingress', () =>
    page.getByLabel('Domain').fill('tunnels.example.com'),
  );
  await page.getByRole('link', { name: id }).click();
  await page.getByRole('button', { name: /Copy NS targets 1/ }).waitFor();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByLabel('Description').fill('edited ingress');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('definition').filter({ hasText: 'edited ingress' }).waitFor();
  await deleteOpen(id);
}, 120_000);

it('creates, edits and deletes a certificate authority and TLS and HTTPS edges', async () => {
  await go('Edges', 'Certificate authorities');
  await lifecycle('certificate authority', () => page.getByLabel(/CA certificate/).fill(CA_PEM));
  await go('Edges', 'TLS edges');
  await lifecycle('TLS edge', async () => {
    await page.getByRole('button', { name: 'Add hostport' }).click();
    await page.getByRole('textbox', { name: 'Hostport 1' }).fill('db.example.com:5432');
  });
  await go('Edges', 'HTTPS edges');
  await lifecycle('HTTPS edge');
}, 120_000);

it('sets and removes every module of a TLS edge, with their own endpoints', async () => {
  await go('Backends', 'HTTP response backends');
  const backend = await create('HTTP response backend', async () => {});
  await go('IP policies');
  const policy = await create('IP policy', async () => {});
  await go('Edges', 'Certificate authorities');
  const ca = await create('certificate authority', () =>
    page.getByLabel(/CA certificate/).fill(CA_PEM),
  );
  await go('Edges', 'TLS edges');
  const edge = await create('TLS edge', async () => {});
  await page.getByRole('link', { name: edge }).click();

  // A list's select adds what is picked, as the single one sets it.
  const choose = (name: string, id: string) =>
    selectListed(page.getByRole('combobox', { name }), id);
  await app.setModule('Backend', () => choose('Backend', backend));
  await app.setModule('IP restriction', () => choose('IP policies to add', policy));
  await app.setModule('Mutual TLS', () => choose('Trusted CAs to add', ca));
  // Passing TLS through would leave mutual TLS blind: refused, with the code beside the form.
  await page.getByRole('button', { name: 'Set TLS termination' }).click();
  await page.getByLabel('Terminate at').selectOption('upstream');
  expect(await page.getByLabel('Minimum TLS version').count()).toBe(0);
  await page.getByRole('dialog').getByRole('button', { name: 'Set TLS termination' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: /ERR_SERVICE_\d+/ })
    .first()
    .waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Discard' }).click();
  await app.setModule('TLS termination', () =>
    page.getByLabel('Minimum TLS version').selectOption('1.2'),
  );
  await screenshot(page, 'tls-edge-modules-light');
  for (const label of ['Backend', 'IP restriction', 'Mutual TLS', 'TLS termination']) {
    await app.removeModule(label);
  }
  await deleteOpen(edge);
  for (const [section, tab, id] of [
    ['Backends', 'HTTP response backends', backend],
    ['IP policies', undefined, policy],
    ['Edges', 'Certificate authorities', ca],
  ] as const) {
    await go(section, tab);
    await page.getByRole('link', { name: id }).click();
    await deleteOpen(id);
  }
}, 180_000);

it('creates, edits and deletes a route inside its HTTPS edge', async () => {
  await go('Edges', 'HTTPS edges');
  const edge = await create('HTTPS edge', async () => {});
  await page.getByRole('link', { name: edge }).click();
  await page.getByRole('button', { name: 'New route' }).click();
  await page.getByLabel('Match type').selectOption('path_prefix');
  await page
    .getByLabel(/^Match/)
    .last()
    .fill('has space');
  await page.getByRole('button', { name: 'Create route' }).click();
  await page.getByRole('dialog').getByText('must not contain spaces').waitFor();
  await page
    .getByLabel(/^Match/)
    .last()
    .fill('/api');
  await page.getByRole('button', { name: 'Create route' }).click();
  const row = page
    .getByRole('table', { name: `Routes of ${edge}` })
    .getByRole('row')
    .nth(1);
  await row.getByText('/api').waitFor();
  await row.getByRole('button', { name: /^Edit route/ }).click();
  await page.getByRole('dialog').getByLabel('Description').fill('the API');
  await page.getByRole('button', { name: 'Save route' }).click();
  await row.getByText('the API').waitFor();
  await screenshot(page, 'https-edge-routes-light');
  await row.getByRole('button', { name: /^Delete route/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete route' }).click();
  await page.getByText('No route').waitFor();
  await deleteOpen(edge);
}, 120_000);

it('creates, edits and deletes SSH CAs and the certificates they sign', async () => {
  await go('SSH');
  // The SSH section opens on this machine's keys; the account's lists are a link away.
  await page.getByRole('link', { name: 'SSH certificate authorities', exact: true }).click();
  const ca = await create('SSH certificate authority', () =>
    page.getByLabel('Key type').selectOption('ed25519'),
  );
  for (const tab of ['SSH user certificates', 'SSH host certificates'] as const) {
    await page.getByRole('link', { name: tab, exact: true }).click();
    const singular = tab.slice(0, -1);
    await lifecycle(singular, async () => {
      await selectListed(page.getByLabel('Certificate authority'), ca);
      await page.getByLabel('Public key').fill(PUBLIC_KEYS.ed25519);
      await page.getByRole('button', { name: 'Add principal' }).click();
      await page.getByRole('textbox', { name: 'Principal 1' }).fill('alice');
    });
  }
  await page.getByRole('link', { name: 'SSH certificate authorities', exact: true }).click();
  await editDescription(ca, 'edited SSH CA');
  await deleteOpen(ca);
}, 120_000);

it('files an abuse report and follows its status', async () => {
  await go('Abuse reports');
  const id = await create('abuse report', async () => {
    await page.getByRole('textbox', { name: 'URL 1' }).fill('https://phish.example.net/login');
  });
  await page.getByRole('link', { name: id }).click();
  await page.getByRole('definition').filter({ hasText: 'phish.example.net' }).first().waitFor();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page
    .getByRole('definition')
    .filter({ hasText: /\b(Pending|Processed|Partly processed)\b/ })
    .first()
    .waitFor();
  // The API has no list of reports: the window remembers the ones it filed.
  await page.reload();
  await go('Abuse reports');
  await page.getByRole('link', { name: id }).waitFor();
}, 120_000);
