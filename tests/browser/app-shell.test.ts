import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { agentsOf, someAgent, watched } from './support/agents.ts';
import { enterSection } from './support/keyboard.ts';
import { budget, scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

const PROFILE = SOME_PROFILES.activeId ?? '';

const SECTION_NAMES = [
  'Sessions',
  'Edges',
  'Backends',
  'Credentials',
  'SSH',
  'IP policies',
  'Agent ingresses',
  'Abuse reports',
  'Settings',
];

it('has one link per section, named exactly, and the version the app reports', async () => {
  render(App, { bridge: scriptedBridge() });
  await expect.element(page.getByText('v1.2.3')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Sections' });
  for (const name of SECTION_NAMES)
    await expect.element(nav.getByRole('link', { name, exact: true })).toBeVisible();
});

it('says how to start the app when there is no bridge', async () => {
  render(App, { bridge: undefined });
  await expect.element(page.getByRole('alert')).toHaveTextContent('npm run web');
});

it('shows a failed first call with its code instead of hanging', async () => {
  render(App, {
    bridge: scriptedBridge({
      'app.info': { error: { code: 'X_LOCKED', message: 'keychain locked' } },
    }),
  });
  await expect.element(page.getByRole('alert')).toHaveTextContent('keychain locked');
  await expect.element(page.getByRole('alert')).toHaveTextContent('X_LOCKED');
});

it('shows "starting the Local sandbox" until it runs, then the sessions', async () => {
  const bridge = scriptedBridge({
    'profiles.state': () => ({ ...SOME_PROFILES, local: { state: 'starting' } }),
    // The Sessions screen lists core's agents, once the monitor polled the profile.
    'sessions.snapshot': () => watched(PROFILE),
    'agents.snapshot': () => agentsOf({ [PROFILE]: [someAgent(PROFILE, 'demo-box')] }),
  });
  render(App, { bridge });
  await expect.element(page.getByText('Starting the Local sandbox')).toBeVisible();
  bridge.emit('profiles.changed', SOME_PROFILES);
  await expect.element(page.getByRole('row', { name: 'demo-box', exact: true })).toBeVisible();
});

it('counts down a rate-limit wait in the header', async () => {
  const bridge = scriptedBridge();
  render(App, { bridge });
  await expect.element(page.getByText('v1.2.3')).toBeVisible();
  bridge.emit('api.activity', {
    profileId: 'prf_local0001',
    kind: 'rate-limited',
    operation: 'ipPolicies.list',
    retryInMs: 12_000,
    message: 'Rate limited, retrying in 12 s',
  });
  await expect.element(page.getByText(/Rate limited, retrying in 1[12] s/)).toBeVisible();
});

it('moves between sections with the keyboard alone', async () => {
  render(App, { bridge: scriptedBridge() });
  const edges = await enterSection('Edges');
  await expect.element(page.getByRole('heading', { name: 'Edges', level: 1 })).toBeVisible();
  await expect.element(edges).toHaveAttribute('aria-current', 'page');
});

it('shows the active profile’s requests left on opening and after a switch, with no call made', async () => {
  let active = SOME_PROFILES.activeId ?? '';
  const bridge = scriptedBridge({
    'governor.state': () => budget(active, active === 'prf_work00001' ? 30 : 2),
  });
  render(App, { bridge });
  // Plenty left, the count is out of sight: the meter's name says it.
  const meter = (left: number) =>
    page.getByRole('button', { name: `Rate limit: ${left} of 120 requests left`, exact: true });
  await expect.element(meter(118)).toBeVisible();

  active = 'prf_work00001';
  bridge.emit('profiles.changed', { ...SOME_PROFILES, activeId: active });
  await expect.element(meter(90)).toBeVisible();
});

it('says "No rate limit" for a key whose window no one could use up (a sandbox run without one)', async () => {
  const unlimited = {
    ...budget(SOME_PROFILES.activeId ?? '', 2),
    capacity: Number.MAX_SAFE_INTEGER,
  };
  render(App, { bridge: scriptedBridge({ 'governor.state': () => unlimited }) });
  await expect.element(page.getByText('No rate limit')).toBeVisible();
  expect(document.body.textContent).not.toMatch(/\d{10,} requests left/);
});
