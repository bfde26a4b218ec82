import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { watchProblems } from '../../support/chromium.ts';
import { currentUser, sshKeygen } from '../../support/openssh.ts';
import { openPage, watchIpc, type IpcTraffic, type WebPage } from './support-window.ts';

/*
 * The SSH screen in Debian's Chromium against `npm run web` on a throwaway HOME: a CA created,
 * a new key and certificate saved into a folder of that HOME and read back by ssh-keygen, a
 * second run on the same name stopped by the question to replace, and a renewal that moves the
 * certificate's validity and keeps the key. One page, in order.
 */

const PASSPHRASE = 'e2e passphrase that stays in core';

let app: WebPage;
let page: Page;
let folder: string;
let ipc: IpcTraffic;
let problems: string[];

const file = (name: string) => path.join(folder, name);
/** `Valid: from 2026-11-23T10:00:00 to 2026-11-23T11:00:00` of ssh-keygen -L. */
const validity = (listing: string) => /Valid: (.*)/.exec(listing)?.[1];

beforeAll(async () => {
  app = await openPage();
  folder = path.join(app.web.home, 'keys');
  page = app.page;
  problems = watchProblems(page);
  ipc = watchIpc(page);
});

afterAll(() => app?.close());

it('creates a certificate authority and shows the lines that trust it', async () => {
  await page.goto(app.web.url);
  await page.getByRole('link', { name: 'SSH', exact: true }).click();
  await page.getByRole('tab', { name: 'Certificate authorities' }).click();
  await page.getByLabel('Key type').selectOption('ecdsa-p256');
  await page.getByLabel('Description').fill('E2E CA');
  await page.getByRole('button', { name: 'Create certificate authority' }).click();
  await page
    .getByLabel('Trust lines for')
    .getByRole('option', { name: /E2E CA/ })
    .waitFor({
      state: 'attached',
    });
  const lines = page.getByRole('region', { name: 'Trust lines' });
  await expect.poll(() => lines.textContent()).toMatch(/@cert-authority \* ecdsa-sha2-nistp256 /);
  expect(await lines.textContent()).toMatch(/TrustedUserCAKeys/);
});

it('saves a new key and certificate that ssh-keygen reads', async () => {
  await page.getByRole('tab', { name: 'New key and certificate' }).click();
  await page.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
  await page.getByLabel('Repeat passphrase').fill(PASSPHRASE);
  await page.getByLabel('Folder').fill(folder);
  await page.getByLabel('File name').fill('id_e2e');
  await page.getByLabel('Certificate authority').selectOption({ label: 'E2E CA (ECDSA)' });
  await page.getByLabel('Principals').fill(currentUser);
  await page.getByLabel('Valid for').selectOption('1h');
  await page.getByRole('button', { name: 'Create key and certificate' }).click();

  const saved = page.getByRole('region', { name: 'Saved' });
  await saved.waitFor({ timeout: 20_000 });
  expect(await saved.textContent()).toContain(
    `ssh -i ${file('id_e2e')} -o CertificateFile=${file('id_e2e-cert.pub')} ${currentUser}@HOST`,
  );

  const recovered = await sshKeygen('-y', '-P', PASSPHRASE, '-f', file('id_e2e'));
  const publicKey = await readFile(file('id_e2e.pub'), 'utf8');
  expect(recovered.split(' ').slice(0, 2)).toEqual(publicKey.split(' ').slice(0, 2));
  const listing = await sshKeygen('-L', '-f', file('id_e2e-cert.pub'));
  expect(listing).toMatch(new RegExp(`Principals:\\s+${currentUser}\\n`));
  expect(listing).toContain('Type: ssh-ed25519-cert-v01@openssh.com user certificate');
  expect(listing).toMatch(/Signing CA: ECDSA SHA256:/);
});

it('asks before replacing files, and Cancel leaves them as they are', async () => {
  const before = await readFile(file('id_e2e'), 'utf8');
  await page.getByLabel('Passphrase', { exact: true }).fill('');
  await page.getByLabel('Repeat passphrase').fill('');
  await page.getByRole('button', { name: 'Create key and certificate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace existing files?' });
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain('id_e2e, id_e2e.pub, id_e2e-cert.pub');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(await readFile(file('id_e2e'), 'utf8')).toBe(before);
});

it('renews from the saved list: a new validity, the same key', async () => {
  const before = await sshKeygen('-L', '-f', file('id_e2e-cert.pub'));
  const publicKey = await readFile(file('id_e2e.pub'), 'utf8');
  // Certificates count whole seconds: renewing in the same second would sign the same window.
  const from = Date.parse(`${/from (\S+)/.exec(before)?.[1]}Z`);
  await expect.poll(() => Date.now() - from, { timeout: 5_000 }).toBeGreaterThan(1_000);

  await page.getByRole('tab', { name: 'Saved certificates' }).click();
  const row = page.getByRole('row', { name: /id_e2e-cert\.pub/ });
  expect(await row.textContent()).toContain('valid');
  await page.getByRole('button', { name: 'Details of id_e2e-cert.pub' }).click();
  const keyId = /Key ID: "(.*)"/.exec(before)?.[1] ?? '';
  await page.getByText(`"${keyId}"`).waitFor();

  await page.getByRole('button', { name: 'Renew id_e2e-cert.pub' }).click();
  await page.getByText('Renewed id_e2e-cert.pub').waitFor();
  const after = await sshKeygen('-L', '-f', file('id_e2e-cert.pub'));
  expect(validity(after)).not.toBe(validity(before));
  expect(/Key ID: "(.*)"/.exec(after)?.[1]).not.toBe(keyId);
  expect(await readFile(file('id_e2e.pub'), 'utf8')).toBe(publicKey);
  const fingerprint = (await sshKeygen('-l', '-f', file('id_e2e.pub'))).split(' ')[1] ?? '';
  expect(after).toContain(`Public key: ED25519-CERT ${fingerprint}`);
  // The details shown follow the renewed certificate.
  await page.getByText(`"${/Key ID: "(.*)"/.exec(after)?.[1]}"`).waitFor();
});

it('never carries the passphrase or the private key back to the page', async () => {
  const privateKey = await readFile(file('id_e2e'), 'utf8');
  const wire = [...ipc.sent, ...ipc.answered].join('\n');
  expect(wire).not.toContain('PRIVATE KEY');
  for (const line of privateKey.split('\n').slice(1, -2)) expect(wire).not.toContain(line);
  // The passphrase went one way, in the generate request only.
  expect(ipc.sent.filter((t) => t.includes(PASSPHRASE))).toHaveLength(1);
  expect(ipc.answered.join('\n')).not.toContain(PASSPHRASE);
  expect(problems).toEqual([]);
});
