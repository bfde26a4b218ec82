import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
// The window's own styles: what fits in 800×600 depends on them.
import '../../renderer/src/app.css';
import { refusingWhile, scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

function openSettings() {
  window.location.hash = '#/settings';
}

it('adds a profile and says what the app refused once, at the field it names', async () => {
  openSettings();
  const bridge = scriptedBridge({
    'profiles.add': {
      error: {
        code: 'IPC_BAD_ARGUMENTS',
        message: 'Use https: plain http is allowed only to this machine',
        field: 'baseUrl',
      } as never,
    },
  });
  render(App, { bridge });
  await page.getByLabelText('Name', { exact: true }).fill('Work');
  await page.getByLabelText('API address').fill('http://api.example.com');
  const key = page.getByLabelText('API key');
  await key.fill('k');
  // Typed hidden, shown on asking, so that a pasted key can be checked.
  await expect.element(key).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Reveal API key' }).click();
  await expect.element(key).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide API key' }).click();
  await expect.element(key).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Add profile' }).click();
  const address = page.getByLabelText('API address');
  await expect.element(address).toHaveAttribute('aria-invalid', 'true');
  await expect
    .element(address)
    .toHaveAccessibleDescription('Use https: plain http is allowed only to this machine');
  expect(document.body.textContent?.split('plain http is allowed').length).toBe(2);
  await expect.element(page.getByText('IPC_BAD_ARGUMENTS')).not.toBeInTheDocument();
  expect(bridge.argsOf('profiles.add')).toEqual([
    { name: 'Work', baseUrl: 'http://api.example.com', apiKey: 'k' },
  ]);
});

it('asks before removing a profile, and Cancel removes nothing', async () => {
  openSettings();
  const bridge = scriptedBridge({ 'profiles.remove': () => SOME_PROFILES });
  render(App, { bridge });
  await page.getByRole('button', { name: 'Remove Work' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Work?' });
  await expect.element(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(bridge.argsOf('profiles.remove')).toBeUndefined();
  await page.getByRole('button', { name: 'Remove Work' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect.poll(() => bridge.argsOf('profiles.remove')).toEqual(['prf_work00001']);
});

it('says plainly when no keychain can keep keys', async () => {
  openSettings();
  render(App, {
    bridge: scriptedBridge({
      'profiles.state': () => ({
        ...SOME_PROFILES,
        keychain: {
          available: false,
          message: 'No keychain is available, so Burrow cannot keep API keys',
        },
      }),
    }),
  });
  await expect.element(page.getByRole('alert')).toHaveTextContent('No keychain is available');
});

it('says that a damaged settings file was set aside, and where', async () => {
  openSettings();
  const message =
    'Burrow could not read /data/settings.json (Unexpected end of JSON input): it was set ' +
    'aside as /data/settings.damaged-2026-11-26T19-52-00.json';
  render(App, {
    bridge: scriptedBridge({
      'profiles.state': () => ({
        ...SOME_PROFILES,
        damagedSettings: { file: '/data/settings.damaged-2026-11-26T19-52-00.json', message },
      }),
    }),
  });
  await expect.element(page.getByRole('status').filter({ hasText: message })).toBeVisible();
});

it('renames a profile from its edit dialog', async () => {
  openSettings();
  const bridge = scriptedBridge({
    'profiles.rename': () => SOME_PROFILES.profiles[1],
  });
  render(App, { bridge });
  await page.getByRole('button', { name: 'Edit Work' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Work' });
  await dialog.getByLabelText('Name').fill('Production');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(() => bridge.argsOf('profiles.rename'))
    .toEqual(['prf_work00001', 'Production']);
  expect(bridge.argsOf('profiles.changeKey')).toBeUndefined();
});

it('switches certificate-expiry notifications off and on, each kind worded as what happens', async () => {
  openSettings();
  const bridge = scriptedBridge();
  render(App, { bridge });
  const group = page.getByRole('group', { name: 'Notify me when' });
  await expect.element(group.getByRole('checkbox')).toHaveLength(6);
  const certificates = group.getByLabelText(
    'A saved SSH certificate is due for renewal (at its lead time)',
  );
  await expect.element(certificates).toBeChecked();
  await certificates.click();
  await expect
    .poll(() => bridge.argsOf('settings.update'))
    .toEqual([{ notifications: { certificateExpiry: false } }]);
});

it("fits an 800×600 window: a profile's actions fold into one menu, and Switch says why not", async () => {
  await page.viewport(800, 600);
  openSettings();
  const bridge = scriptedBridge({ 'profiles.switch': () => SOME_PROFILES });
  render(App, { bridge });
  const work = page.getByRole('row').filter({ hasText: 'Work' });
  await expect.element(work.getByRole('button', { name: 'Actions for Work' })).toBeVisible();
  await expect.element(work.getByRole('button', { name: 'Edit Work' })).not.toBeInTheDocument();
  const cell = work.getByRole('button', { name: 'Actions for Work' }).element().closest('td');
  expect(cell?.getBoundingClientRect().height).toBeLessThan(48);
  await work.getByRole('button', { name: 'Actions for Work' }).click();
  const menu = page.getByRole('menu', { name: 'Actions for Work' });
  await expect.element(menu.getByRole('menuitem', { name: 'Switch' })).toHaveFocus();
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => bridge.argsOf('profiles.switch')).toEqual(['prf_work00001']);
  await expect.element(menu).not.toBeInTheDocument();

  // The active profile's Switch cannot run, and says why.
  const local = page.getByRole('row').filter({ hasText: 'Local sandbox' });
  await local.getByRole('button', { name: 'Actions for Local sandbox' }).click();
  const active = page
    .getByRole('menu', { name: 'Actions for Local sandbox' })
    .getByRole('menuitem', { name: /Switch/ });
  await expect.element(active).toHaveAttribute('aria-disabled', 'true');
  await expect.element(active).toHaveAccessibleDescription('Already the active profile');

  await page.viewport(1280, 800);
  await expect.element(work.getByRole('button', { name: 'Edit Work' })).toBeVisible();
  await expect
    .element(work.getByRole('button', { name: 'Actions for Work' }))
    .not.toBeInTheDocument();
});

it('moves a profile to another address, its key tried there, and shows a refusal at the field', async () => {
  openSettings();
  let refuse = true;
  const bridge = scriptedBridge({
    'profiles.changeAddress': refusingWhile(
      () => refuse,
      {
        code: 'IPC_BAD_ARGUMENTS',
        message: 'Enter an address such as https://api.example.com',
        field: 'baseUrl',
      },
      () => ({ ...SOME_PROFILES.profiles[1], baseUrl: 'https://eu.api.example.com' }),
    ),
  });
  render(App, { bridge });
  await page.getByRole('button', { name: 'Edit Work' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Work' });
  const address = dialog.getByLabelText('API address');
  await expect.element(address).toHaveValue('https://api.example.com');
  await address.fill('eu.api.example.com');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.element(address).toHaveAttribute('aria-invalid', 'true');
  await expect.element(address).toHaveAccessibleDescription(/Enter an address such as/);
  await expect.element(dialog.getByRole('alert')).not.toBeInTheDocument();

  refuse = false;
  await address.fill('https://eu.api.example.com');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.element(dialog).not.toBeInTheDocument();
  expect(bridge.calls.filter((c) => c.name === 'profiles.changeAddress').at(-1)?.args).toEqual([
    'prf_work00001',
    { baseUrl: 'https://eu.api.example.com' },
  ]);
  expect(bridge.argsOf('profiles.changeKey')).toBeUndefined();
});

it('shows the last update check in words, and restarts to update only on the click', async () => {
  openSettings();
  const at = new Date(Date.now() - 5 * 60_000).toISOString();
  const state = {
    phase: 'downloading',
    current: '1.2.3',
    offered: '1.3.0',
    message: 'Downloading Burrow 1.3.0…',
    lastCheck: { at, result: 'Burrow 1.3.0 is available', failed: false },
    nextCheckAt: null,
  } as const;
  const bridge = scriptedBridge({
    'updates.state': () => state,
    'updates.install': () => ({ ...state, phase: 'ready' }),
  });
  render(App, { bridge });
  const updates = page.getByRole('region', { name: 'Updates' });
  await expect
    .element(updates)
    .toHaveTextContent(/Last checked 5 minutes ago.*: Burrow 1\.3\.0 is available\./);
  await expect
    .element(updates.getByRole('button', { name: 'Restart to update' }))
    .not.toBeInTheDocument();
  bridge.emit('updates.changed', {
    ...state,
    phase: 'ready',
    message: 'Burrow 1.3.0 is ready: restart to update',
  });
  await expect
    .element(updates.getByRole('status'))
    .toHaveTextContent('Burrow 1.3.0 is ready: restart to update.');
  expect(bridge.argsOf('updates.install')).toBeUndefined();
  await updates.getByRole('button', { name: 'Restart to update' }).click();
  await expect.poll(() => bridge.argsOf('updates.install')).toEqual([]);
});

it('says in words that browser mode has no updater', async () => {
  openSettings();
  render(App, { bridge: scriptedBridge() });
  const updates = page.getByRole('region', { name: 'Updates' });
  await expect
    .element(updates)
    .toHaveTextContent('Browser mode has no updater: updates come with the installed desktop app.');
  await expect.element(updates.getByRole('button', { name: 'Check now' })).not.toBeInTheDocument();
});

const IDLE = {
  phase: 'idle',
  current: '1.2.3',
  offered: null,
  message: 'Burrow is up to date',
  lastCheck: null,
  nextCheckAt: null,
} as const;

it('keeps what core told of the updates while Settings was closed', async () => {
  window.location.hash = '#/sessions';
  const bridge = scriptedBridge({ 'updates.state': () => IDLE });
  render(App, { bridge });
  await expect.element(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  // Downloaded in the background while another screen was shown; core says it once.
  bridge.emit('updates.changed', {
    ...IDLE,
    phase: 'ready',
    offered: '1.3.0',
    message: 'Burrow 1.3.0 is ready: restart to update',
  });
  openSettings();
  const updates = page.getByRole('region', { name: 'Updates' });
  await expect
    .element(updates.getByRole('status'))
    .toHaveTextContent('Burrow 1.3.0 is ready: restart to update.');
  await expect.element(updates.getByRole('button', { name: 'Restart to update' })).toBeVisible();
});

it('shows what Check now answered, with no event after it', async () => {
  openSettings();
  const bridge = scriptedBridge({
    'updates.state': () => IDLE,
    'updates.check': () => ({
      ...IDLE,
      phase: 'available',
      offered: '1.3.0',
      message: 'Burrow 1.3.0 is available',
    }),
  });
  render(App, { bridge });
  const updates = page.getByRole('region', { name: 'Updates' });
  await updates.getByRole('button', { name: 'Check now' }).click();
  await expect.element(updates.getByRole('button', { name: 'Download 1.3.0' })).toBeVisible();
  await expect.element(updates.getByRole('status')).toHaveTextContent('Burrow 1.3.0 is available');
});
