import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import { scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

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
    // The Sessions screen shows what the monitor polled, once it polled the profile.
    'sessions.snapshot': () => ({
      paused: false,
      profiles: [
        {
          profileId: SOME_PROFILES.activeId ?? '',
          health: 'ok' as const,
          healthReason: null,
          sessions: [
            {
              id: 'ts_demo1',
              uri: 'http://127.0.0.1/tunnel_sessions/ts_demo1',
              agent_version: '3.1.0',
              credential: { id: 'cr_1', uri: 'http://127.0.0.1/credentials/cr_1' },
              ip: '203.0.113.7',
              metadata: '',
              os: 'linux',
              region: 'eu',
              started_at: new Date().toISOString(),
              transport: 'service/v2',
            },
          ],
          lastPollAt: 0,
          polls: 1,
          pages: 1,
          intervalMs: 15_000,
        },
      ],
    }),
  });
  render(App, { bridge });
  await expect.element(page.getByText('Starting the Local sandbox')).toBeVisible();
  bridge.emit('profiles.changed', SOME_PROFILES);
  await expect.element(page.getByRole('cell', { name: 'ts_demo1', exact: true })).toBeVisible();
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
  const edges = page.getByRole('link', { name: 'Edges', exact: true });
  await expect.element(edges).toBeVisible();
  (edges.element() as HTMLElement).focus();
  await userEvent.keyboard('{Enter}');
  await expect.element(page.getByRole('heading', { name: 'Edges', level: 1 })).toBeVisible();
  await expect.element(edges).toHaveAttribute('aria-current', 'page');
});

it('shows the active profile’s requests left on opening and after a switch, with no call made', async () => {
  const budget = (profileId: string, used: number) => ({
    profileId,
    capacity: 120,
    windowMs: 60_000,
    used,
    remaining: 120 - used,
    queued: { interactive: 0, background: 0 },
    coolingDownUntil: null,
  });
  let active = SOME_PROFILES.activeId ?? '';
  const bridge = scriptedBridge({
    'governor.state': () => budget(active, active === 'prf_work00001' ? 30 : 2),
  });
  render(App, { bridge });
  await expect.element(page.getByText('118 of 120 requests left')).toBeVisible();

  active = 'prf_work00001';
  bridge.emit('profiles.changed', { ...SOME_PROFILES, activeId: active });
  await expect.element(page.getByText('90 of 120 requests left')).toBeVisible();
});
