import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { exactTime, timeWords } from '../../shared/app/clock.ts';
import type { SignResult } from '../../shared/app/ssh/results.ts';
import { listPage } from './support/records.ts';
import { savedCertificate, SSH_FOLDER } from './support/saved-certificate.ts';
import { scriptedBridge } from './support/scripted-bridge.ts';

const CA = {
  id: 'sshca_team0000000000000000000',
  uri: 'https://api.example.com/ssh_certificate_authorities/sshca_team0000000000000000000',
  created_at: '2026-11-01T00:00:00Z',
  description: 'Team CA',
  metadata: '',
  public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFakeFakeFakeFakeFakeFakeFakeFakeFake',
  key_type: 'ed25519',
};

/** The lines that trust CA, as core gives them. */
const CA_TRUST_LINES = {
  publicKey: CA.public_key,
  trustedUserCaKeysLine: `${CA.public_key} ${CA.id}`,
  sshdConfigLine: 'TrustedUserCAKeys /etc/ssh/trusted_user_ca_keys',
  knownHostsLine: `@cert-authority * ${CA.public_key} ${CA.id}`,
};

function made(name: string): SignResult {
  const at = (file: string) => `${SSH_FOLDER}/${file}`;
  return {
    saved: savedCertificate(name, {
      caId: CA.id,
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
    }),
    certificate: {} as SignResult['certificate'],
    files: [
      { path: at(name), role: 'private-key', mode: 0o600 },
      { path: at(`${name}.pub`), role: 'public-key', mode: 0o644 },
      { path: at(`${name}-cert.pub`), role: 'certificate', mode: 0o644 },
    ],
    warnings: [],
    sshCommand: {
      argv: [],
      text: `ssh -i ${at(name)} -o CertificateFile=${at(`${name}-cert.pub`)} alice@HOST`,
    },
  };
}

function openSsh(answers: Parameters<typeof scriptedBridge>[0] = {}) {
  window.location.hash = '#/ssh';
  const bridge = scriptedBridge({
    'ssh.defaultFolder': () => SSH_FOLDER,
    'api.sshCertificateAuthorities.listAll': () => [CA],
    'ssh.listSaved': () => [],
    'ssh.due': () => [],
    'ssh.existingFiles': () => ({
      folder: SSH_FOLDER,
      files: ['id_burrow', 'id_burrow.pub', 'id_burrow-cert.pub'].map((f) => ({
        path: `${SSH_FOLDER}/${f}`,
        role: 'certificate',
        exists: false,
      })),
    }),
    'ssh.generate': () => made('id_burrow'),
    ...answers,
  });
  render(App, { bridge });
  return bridge;
}

const generated = (bridge: ReturnType<typeof scriptedBridge>) =>
  bridge.calls.filter((c) => c.name === 'ssh.generate');

it('refuses to go on while the two passphrases differ, and says so', async () => {
  const bridge = openSsh();
  await expect.element(page.getByLabelText('Folder')).toHaveValue(SSH_FOLDER);
  await page.getByLabelText('Passphrase', { exact: true }).fill('one passphrase');
  await page.getByLabelText('Repeat passphrase').fill('another one');
  await expect.element(page.getByRole('alert')).toHaveTextContent('The passphrases differ.');

  await page.getByLabelText('Repeat passphrase').fill('one passphrase');
  await expect.element(page.getByText('The passphrases differ.')).not.toBeInTheDocument();
  await page.getByLabelText('Principals').fill('alice');
  await page.getByRole('button', { name: 'Create key and certificate' }).click();
  await expect.element(page.getByRole('region', { name: 'Saved' })).toBeVisible();
  const [request, requestId] = generated(bridge)[0]?.args ?? [];
  expect(request).toEqual({
    key: { type: 'ed25519' },
    passphrase: 'one passphrase',
    target: { folder: SSH_FOLDER, name: 'id_burrow', overwrite: false },
    certificate: {
      caId: CA.id,
      kind: 'user',
      principals: ['alice'],
      validity: { preset: '1d' },
      criticalOptions: {},
      // The spec's defaults, pre-checked.
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
    },
  });
  expect(requestId).toMatch(/^gen-/);
  // The fields forget the passphrase once it has gone to core.
  await expect.element(page.getByLabelText('Passphrase', { exact: true })).toHaveValue('');
});

it('warns plainly while no principal is given, for users and for hosts', async () => {
  openSsh();
  const warning = page.getByText(/^No principals:/);
  await expect.element(warning).toHaveTextContent('log in as any user');
  await page.getByRole('radio', { name: 'Host' }).click();
  await expect.element(warning).toHaveTextContent('valid for any host name');
  // A host certificate's default validity is the spec's year.
  await expect.element(page.getByLabelText('Valid for')).toHaveValue('1y');
  await page.getByLabelText('Principals').fill('db.example.com');
  await expect.element(warning).not.toBeInTheDocument();
});

it('asks before replacing files that exist, naming them, and Cancel writes nothing', async () => {
  const bridge = openSsh({
    'ssh.existingFiles': () => ({
      folder: SSH_FOLDER,
      files: [
        { path: `${SSH_FOLDER}/id_burrow`, role: 'private-key', exists: true },
        { path: `${SSH_FOLDER}/id_burrow.pub`, role: 'public-key', exists: true },
        { path: `${SSH_FOLDER}/id_burrow-cert.pub`, role: 'certificate', exists: false },
      ],
    }),
  });
  await page.getByLabelText('Principals').fill('alice');
  await page.getByRole('button', { name: 'Create key and certificate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace existing files?' });
  await expect.element(dialog).toHaveTextContent('id_burrow, id_burrow.pub.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(generated(bridge)).toEqual([]);

  await page.getByRole('button', { name: 'Create key and certificate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Replace' }).click();
  await expect
    .poll(() => (generated(bridge)[0]?.args[0] as { target: unknown } | undefined)?.target)
    .toEqual({ folder: SSH_FOLDER, name: 'id_burrow', overwrite: true });
});

it('asks too when a file appeared after the check, from the paths of the refusal', async () => {
  openSsh({
    'ssh.generate': () => {
      throw Object.assign(new Error('exists'), {
        code: 'SSH_FILE_EXISTS',
        message: 'Already there',
        paths: [`${SSH_FOLDER}/id_burrow-cert.pub`],
      });
    },
  });
  await page.getByLabelText('Principals').fill('alice');
  await page.getByRole('button', { name: 'Create key and certificate' }).click();
  await expect
    .element(page.getByRole('dialog', { name: 'Replace existing files?' }))
    .toHaveTextContent('id_burrow-cert.pub');
});

it('moves between the tabs with the arrow keys', async () => {
  openSsh();
  const first = page.getByRole('tab', { name: 'New key and certificate' });
  await expect.element(first).toHaveAttribute('aria-selected', 'true');
  (first.element() as HTMLElement).focus();
  await userEvent.keyboard('{ArrowRight}');
  const second = page.getByRole('tab', { name: 'Sign an existing key' });
  await expect.element(second).toHaveAttribute('aria-selected', 'true');
  await expect.element(second).toHaveFocus();
  await expect.element(page.getByLabelText('Public key file')).toBeVisible();
  await userEvent.keyboard('{End}');
  await expect
    .element(page.getByRole('tab', { name: 'Certificate authorities' }))
    .toHaveAttribute('aria-selected', 'true');
});

it('badges saved certificates as valid, due or expired, and forgets one only when confirmed', async () => {
  const record = (id: string, name: string) => ({
    ...made(name).saved,
    id,
    certificatePath: `${SSH_FOLDER}/${name}-cert.pub`,
  });
  const saved = [record('a', 'id_ok'), record('b', 'id_due'), record('c', 'id_old')];
  const due = (savedId: string, expired: boolean) => ({
    savedId,
    key: savedId,
    reason: 'two-thirds',
    dueAt: '2026-11-23T10:00:00Z',
    validUntil: '2026-11-24T10:00:00Z',
    expired,
    message: '',
  });
  const bridge = openSsh({
    'ssh.listSaved': () => saved,
    'ssh.due': () => [due('b', false), due('c', true)],
    'ssh.forget': () => saved.slice(0, 2),
    'ssh.setLeadTime': () => saved[0],
  });
  await page.getByRole('tab', { name: /Saved certificates/ }).click();
  await expect
    .element(page.getByRole('row', { name: /id_ok-cert\.pub/ }))
    .toHaveTextContent('valid');
  await expect
    .element(page.getByRole('row', { name: /id_due-cert\.pub/ }))
    .toHaveTextContent('renew soon');
  await expect
    .element(page.getByRole('row', { name: /id_old-cert\.pub/ }))
    .toHaveTextContent('expired');

  await userEvent.selectOptions(page.getByLabelText('Remind about id_ok-cert.pub'), '1 day before');
  await expect.poll(() => bridge.argsOf('ssh.setLeadTime')).toEqual(['a', 86_400]);

  await page.getByRole('button', { name: 'Forget id_old-cert.pub' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  expect(bridge.argsOf('ssh.forget')).toBeUndefined();
  await page.getByRole('button', { name: 'Forget id_old-cert.pub' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget' }).click();
  await expect.element(page.getByRole('row', { name: /id_old-cert\.pub/ })).not.toBeInTheDocument();
  expect(bridge.argsOf('ssh.forget')).toEqual(['c']);
});

it('turns a badge to "renew soon" when core reminds of it while the screen is open', async () => {
  const saved = [
    { ...made('id_ok').saved, id: 'a', certificatePath: `${SSH_FOLDER}/id_ok-cert.pub` },
  ];
  const reminder = {
    dueAt: '2026-11-23T10:00:00Z',
    expired: false,
    key: 'a',
    message: 'Renew id_ok-cert.pub',
  };
  let due: unknown[] = [];
  const bridge = openSsh({ 'ssh.listSaved': () => saved, 'ssh.due': () => due });
  await page.getByRole('tab', { name: /Saved certificates/ }).click();
  const row = page.getByRole('row', { name: /id_ok-cert\.pub/ });
  await expect.element(row).toHaveTextContent('valid');
  due = [{ ...reminder, savedId: 'a', reason: 'two-thirds', validUntil: '2026-11-24T10:00:00Z' }];
  bridge.emit('ssh.certificateExpiring', {
    ...reminder,
    certId: 'a',
    name: 'id_ok-cert.pub',
    expiresAt: '2026-11-24T10:00:00Z',
  });
  await expect.element(row).toHaveTextContent('renew soon');
});

it("reads a saved certificate's validity as the window reads every moment, not as RFC 3339", async () => {
  const saved = { ...made('id_ok').saved, certificatePath: `${SSH_FOLDER}/id_ok-cert.pub` };
  const [after, before] = ['2026-11-29T06:51:29.000Z', '2027-11-29T06:51:29.000Z'];
  openSsh({
    'ssh.listSaved': () => [saved],
    'ssh.decode': () => ({
      certType: 'ssh-ed25519-cert-v01@openssh.com',
      kind: 'user',
      keyType: 'ed25519',
      publicKey: 'ssh-ed25519 AAAA',
      keyFingerprint: 'SHA256:abc',
      keyId: 'alice',
      serial: '1',
      principals: ['alice'],
      validAfter: after,
      validBefore: before,
      criticalOptions: {},
      extensions: {},
      caFingerprint: 'SHA256:ca',
      signatureAlgorithm: 'ssh-ed25519',
    }),
  });
  await page.getByRole('tab', { name: /Saved certificates/ }).click();
  await page.getByRole('button', { name: 'Details of id_ok-cert.pub' }).click();
  const valid = page.getByRole('definition').filter({ hasText: /^\s*from/ });
  // Each end as every moment reads, its exact local time on hover and focus.
  await expect.element(valid).toHaveTextContent(/^\s*from .+ to /);
  for (const at of [after, before])
    await expect
      .element(valid.getByRole('button', { name: timeWords(at), exact: true }))
      .toHaveAccessibleDescription(exactTime(at));
  expect(valid.element().textContent).not.toContain('2026-11-29T');
});

it('creates a certificate authority with the key type chosen', async () => {
  const bridge = openSsh({
    'api.sshCertificateAuthorities.create': () => CA,
    'ssh.trustLines': () => CA_TRUST_LINES,
  });
  await page.getByRole('tab', { name: 'Certificate authorities' }).click();
  await expect
    .element(page.getByRole('region', { name: 'Trust lines' }))
    .toHaveTextContent('@cert-authority *');
  await userEvent.selectOptions(page.getByLabelText('Key type'), 'rsa-4096');
  await page.getByRole('button', { name: 'Create certificate authority' }).click();
  await expect
    .poll(() => bridge.argsOf('api.sshCertificateAuthorities.create'))
    .toEqual([{ body: { private_key_type: 'rsa', key_size: 4096 } }]);
});

it('signs for a window given as a start and an end, in local time', async () => {
  const bridge = openSsh();
  await page.getByLabelText('Principals').fill('alice');
  await userEvent.selectOptions(page.getByLabelText('Valid for'), 'window');
  await page.getByLabelText('From', { exact: true }).fill('2026-12-01T09:00');
  await page.getByLabelText('Until', { exact: true }).fill('2026-12-01T17:30');
  await page.getByRole('button', { name: 'Create key and certificate' }).click();
  await expect
    .poll(
      () =>
        (generated(bridge)[0]?.args[0] as { certificate: { validity: unknown } } | undefined)
          ?.certificate.validity,
    )
    .toEqual({
      validAfter: new Date('2026-12-01T09:00').toISOString(),
      validUntil: new Date('2026-12-01T17:30').toISOString(),
    });
});

it('names the certificate already there when an existing key is signed again', async () => {
  openSsh({
    'ssh.signExisting': {
      error: {
        code: 'SSH_FILE_EXISTS',
        message: `Already there: ${SSH_FOLDER}/id_ed25519-cert.pub.`,
        paths: [`${SSH_FOLDER}/id_ed25519-cert.pub`],
      },
    },
  });
  await page.getByRole('tab', { name: 'Sign an existing key' }).click();
  await page.getByLabelText('Public key file').fill(`${SSH_FOLDER}/id_ed25519.pub`);
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect
    .element(page.getByRole('dialog', { name: 'Replace the certificate?' }))
    .toHaveTextContent('id_ed25519-cert.pub is already there.');
});

it('brings what was saved into view, and says how long the agent keeps the key in hours', async () => {
  const bridge = openSsh({
    'ssh.signExisting': () => made('id_ed25519'),
    'ssh.addToAgent': () => ({
      lifetimeSeconds: 86_396,
      certificateHeld: true,
      message: 'The key and its certificate are in the ssh-agent for 86396 s.',
    }),
  });
  await page.getByRole('tab', { name: 'Sign an existing key' }).click();
  await page.getByLabelText('Public key file').fill(`${SSH_FOLDER}/id_ed25519.pub`);
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  const heading = page.getByRole('heading', { name: 'Saved' });
  await expect.element(heading).toHaveFocus();
  await expect.element(heading).toBeInViewport();

  await page.getByRole('button', { name: 'Add to ssh-agent' }).click();
  await expect
    .element(page.getByRole('status').filter({ hasText: 'ssh-agent' }))
    .toHaveTextContent(
      'The key and its certificate are in the ssh-agent for 23 hours 59 minutes, until the certificate expires.',
    );
  expect(bridge.argsOf('ssh.addToAgent')).toBeDefined();
});

it('chooses no CA among several for the person, and signs only once one is chosen', async () => {
  const other = { ...CA, id: 'sshca_othr0000000000000000000', description: 'Other CA' };
  const bridge = openSsh({
    'api.sshCertificateAuthorities.listAll': () => [CA, other],
    'ssh.signExisting': () => made('id_ed25519'),
  });
  await page.getByRole('tab', { name: 'Sign an existing key' }).click();
  const choice = page.getByLabelText('Certificate authority');
  await expect.element(choice.getByRole('option', { name: 'Other CA' })).toBeInTheDocument();
  await expect.element(choice).toHaveValue('');
  await expect.element(page.getByText('Choose the CA that signs the certificate.')).toBeVisible();
  await expect.element(page.getByRole('button', { name: 'Sign', exact: true })).toBeDisabled();
  await userEvent.selectOptions(choice, other.id);
  await page.getByLabelText('Public key file').fill(`${SSH_FOLDER}/id_ed25519.pub`);
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect
    .poll(
      () =>
        (bridge.argsOf('ssh.signExisting')?.[0] as { certificate: { caId: string } })?.certificate
          .caId,
    )
    .toBe(other.id);
});

it('says at the field what is wrong with it: a passphrase not repeated, a folder not absolute', async () => {
  const bridge = openSsh({
    'ssh.existingFiles': {
      error: { code: 'IPC_BAD_ARGUMENTS', message: 'must be an absolute path', field: 'folder' },
    },
  });
  await expect.element(page.getByLabelText('Folder')).toHaveValue(SSH_FOLDER);
  await page.getByLabelText('Principals').fill('alice');
  await page.getByLabelText('Passphrase', { exact: true }).fill('one passphrase');
  const create = page.getByRole('button', { name: 'Create key and certificate' });
  await create.click();
  const repeat = page.getByLabelText('Repeat passphrase');
  await expect.element(repeat).toHaveFocus();
  await expect.element(repeat).toHaveAccessibleDescription('Repeat the passphrase.');
  expect(bridge.argsOf('ssh.existingFiles')).toBeUndefined();

  await repeat.fill('one passphrase');
  const folder = page.getByLabelText('Folder');
  await folder.fill('ssh-keys');
  await create.click();
  await expect.element(folder).toHaveAttribute('aria-invalid', 'true');
  await expect.element(folder).toHaveAccessibleDescription('Folder must be an absolute path');
  await expect.element(page.getByText('IPC_BAD_ARGUMENTS')).not.toBeInTheDocument();
});

const HOST_CERTIFICATE = {
  id: 'shcrt_web00000000000000000000',
  uri: 'https://api.example.com/ssh_host_certificates/shcrt_web00000000000000000000',
  created_at: '2026-11-01T00:00:00Z',
  description: 'web host',
  metadata: '',
  public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFakeFakeFakeFakeFakeFakeFakeFakeFake',
  key_type: 'ed25519',
  ssh_certificate_authority_id: CA.id,
  principals: ['web.example.com'],
  valid_after: '2026-11-01T00:00:00Z',
  valid_until: '2027-11-01T00:00:00Z',
  certificate: 'ssh-ed25519-cert-v01@openssh.com AAAA',
};

it('says what an SSH certificate authority is used by, and that the API refuses its delete', async () => {
  openSsh({
    'api.sshCertificateAuthorities.list': () => listPage('ssh_certificate_authorities', [CA]),
    'api.sshCertificateAuthorities.get': () => CA,
    'api.sshUserCertificates.listAll': () => [],
    'api.sshHostCertificates.listAll': () => [HOST_CERTIFICATE],
  });
  window.location.hash = `#/ssh/sshCertificateAuthorities/${CA.id}`;
  const usedBy = page.getByRole('region', { name: 'Used by' });
  await expect
    .element(usedBy.getByRole('link', { name: 'web host' }))
    .toHaveAttribute('href', `#/ssh/sshHostCertificates/${HOST_CERTIFICATE.id}`);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect
    .element(page.getByRole('dialog'))
    .toHaveTextContent("In use by SSH host certificate 'web host'");
});

it('gives a host certificate the sshd_config lines that put it to use', async () => {
  openSsh({
    'api.sshHostCertificates.list': () => listPage('ssh_host_certificates', [HOST_CERTIFICATE]),
    'api.sshHostCertificates.get': () => HOST_CERTIFICATE,
  });
  window.location.hash = `#/ssh/sshHostCertificates/${HOST_CERTIFICATE.id}`;
  const setup = page.getByRole('region', { name: 'In sshd_config' });
  await expect
    .element(setup)
    .toHaveTextContent('HostCertificate /etc/ssh/ssh_host_ed25519_key-cert.pub');
  await expect.element(setup).toHaveTextContent('TrustedUserCAKeys /etc/ssh/trusted_user_ca_keys');
  await expect
    .element(setup.getByRole('button', { name: 'Copy the HostCertificate line' }))
    .toBeVisible();
});

it('gives a host certificate just signed its sshd_config and @cert-authority lines', async () => {
  const host = made('ssh_host_ed25519_key');
  openSsh({
    'ssh.signExisting': () => ({ ...host, saved: { ...host.saved, kind: 'host' } }),
    'ssh.trustLines': () => CA_TRUST_LINES,
  });
  await page.getByRole('tab', { name: 'Sign an existing key' }).click();
  await page.getByLabelText('Public key file').fill(`${SSH_FOLDER}/ssh_host_ed25519_key.pub`);
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  const saved = page.getByRole('region', { name: 'Saved' });
  await expect
    .element(saved.getByRole('region', { name: 'In sshd_config' }))
    .toHaveTextContent('HostCertificate /etc/ssh/ssh_host_ed25519_key-cert.pub');
  const knownHosts = saved.getByRole('region', { name: 'In ~/.ssh/known_hosts' });
  await expect.element(knownHosts).toHaveTextContent(`@cert-authority * ${CA.public_key}`);
  await expect
    .element(knownHosts.getByRole('button', { name: 'Copy the @cert-authority line' }))
    .toBeVisible();
});
