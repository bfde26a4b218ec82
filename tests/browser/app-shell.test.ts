import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { BridgeCallError, type Bridge } from '../../shared/ipc/bridge.ts';

// A Bridge written for the test: the real ones (Electron preload, browser-mode HTTP) carry
// the same calls to core/, which the unit and integration suites drive directly.
const bridgeAnswering = (version: string): Bridge => ({
  invoke: async () => ({ name: 'Burrow', version, shell: 'browser' }) as never,
});

it('shows the version the app reports', async () => {
  render(App, { bridge: bridgeAnswering('1.2.3') });
  await expect.element(page.getByText('v1.2.3')).toBeVisible();
  await expect.element(page.getByRole('heading', { name: 'Burrow' })).toBeVisible();
});

it('says how to start the app when there is no bridge', async () => {
  render(App, { bridge: undefined });
  await expect.element(page.getByRole('alert')).toHaveTextContent('npm run web');
});

it('shows a failed call instead of hanging', async () => {
  const failing: Bridge = {
    invoke: () => Promise.reject(new BridgeCallError({ code: 'X', message: 'keychain locked' })),
  };
  render(App, { bridge: failing });
  await expect.element(page.getByRole('alert')).toHaveTextContent('keychain locked');
});
