import { render } from '@testing-library/svelte';
import { expect, it } from 'vitest';
import { page } from 'vitest/browser';
import App from '../../renderer/src/App.svelte';
import type { TunnelSession } from '../../shared/api/tunnel-sessions.ts';
import { unavailableSnapshot, type MonitorSnapshot } from '../../shared/monitor.ts';
import type { TrayClickable, TrayModel } from '../../shared/tray.ts';
import { session as someSession } from '../support/tunnel-sessions.ts';
import { scriptedBridge, SOME_PROFILES } from './support/scripted-bridge.ts';

const PROFILE = SOME_PROFILES.activeId ?? '';

function session(id: string, os = 'linux'): TunnelSession {
  return someSession({
    id,
    ip: '10.0.0.7',
    metadata: `box-${id}`,
    os,
    region: 'eu',
    started_at: new Date().toISOString(),
  });
}

function snapshot(...sessions: TunnelSession[]): MonitorSnapshot {
  const profile = { profileId: PROFILE, health: 'ok' as const, healthReason: null, sessions };
  return {
    paused: false,
    profiles: [{ ...profile, lastPollAt: 0, polls: 1, pages: 1, intervalMs: 15_000 }],
  };
}

function openSessions() {
  window.location.hash = '#/sessions';
}

it('shows sessions live from events, with the rules that forbid an action', async () => {
  openSessions();
  const bridge = scriptedBridge({ 'sessions.snapshot': () => snapshot(session('ts_linux1')) });
  render(App, { bridge });
  await expect.element(page.getByRole('row', { name: 'ts_linux1' })).toBeVisible();

  bridge.emit('sessions.changed', snapshot(session('ts_linux1'), session('ts_win1', 'windows')));
  const restart = page.getByRole('button', { name: 'Restart ts_win1', exact: true });
  await expect.element(restart).toBeDisabled();
  await expect
    .element(restart)
    .toHaveAttribute('title', 'Restart is not supported on Windows agents.');
  await expect.element(page.getByRole('button', { name: 'Update ts_win1' })).toBeEnabled();
  await expect
    .element(page.getByRole('button', { name: 'Restart ts_linux1', exact: true }))
    .toBeEnabled();

  bridge.emit('sessions.changed', snapshot(session('ts_win1', 'windows')));
  await expect.element(page.getByRole('row', { name: 'ts_linux1' })).not.toBeInTheDocument();
});

it('asks before stopping, and shows update-and-restart progress', async () => {
  openSessions();
  const s = session('ts_one');
  const bridge = scriptedBridge({
    'sessions.snapshot': () => snapshot(s),
    'sessions.run': () => ({ ok: true, action: 'stop', profileId: PROFILE, sessionId: s.id }),
  });
  render(App, { bridge });
  await page.getByRole('button', { name: 'Stop ts_one' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop this agent?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(bridge.argsOf('sessions.run')).toBeUndefined();

  await page.getByRole('button', { name: 'Stop ts_one' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop agent' }).click();
  await expect
    .poll(() => bridge.argsOf('sessions.run'))
    .toEqual([{ profileId: PROFILE, sessionId: 'ts_one', action: 'stop' }]);

  const subject = { action: 'update-and-restart' as const, profileId: PROFILE, sessionId: s.id };
  bridge.emit('sessions.action', { phase: 'waiting', ms: 10_000, ...subject });
  await expect.element(page.getByText('Waiting 10 s for the update…')).toBeVisible();
  await expect
    .element(page.getByRole('button', { name: 'Restart ts_one', exact: true }))
    .toBeDisabled();
  bridge.emit('sessions.action', {
    phase: 'done',
    ...subject,
    result: { ok: true, ...subject, version: { before: '3.1.2', after: '3.2.0' } },
  });
  await expect.element(page.getByText('Updated 3.1.2 → 3.2.0')).toBeVisible();
});

/** A tray item that runs `verb` on the agent of session ts_one. */
function onTsOne(verb: 'restart' | 'stop' | 'update', label: string): TrayClickable {
  return {
    type: 'item',
    id: `session:ts_one:${verb}`,
    label,
    enabled: true,
    action: { name: `session.${verb}`, by: 'core', profileId: PROFILE, sessionId: 'ts_one' },
  };
}

it('renders the tray model in the header and runs its items by id', async () => {
  const tray: TrayModel = {
    icon: { state: 'attention', variant: 'burrow-badge', tooltip: 'Burrow · 1 agent went offline' },
    title: '2',
    items: [
      {
        type: 'submenu',
        id: 'session:ts_one',
        label: 'box · linux · eu',
        enabled: true,
        items: [
          onTsOne('restart', 'Restart'),
          {
            ...onTsOne('update', 'Update (not on SSH sessions)'),
            enabled: false,
            tooltip: 'An SSH session can only be stopped',
          },
        ],
      },
    ],
  };
  const bridge = scriptedBridge({
    'tray.model': () => tray,
    'tray.run': () => ({ action: tray.items[0], result: null }) as never,
  });
  render(App, { bridge });
  const button = page.getByRole('button', { name: 'Tray: Burrow · 1 agent went offline' });
  await expect.element(button).toHaveTextContent('2');
  await button.click();
  await page.getByText('box · linux · eu').click();
  await expect
    .element(page.getByRole('button', { name: 'Update (not on SSH sessions)' }))
    .toBeDisabled();
  await page.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect.poll(() => bridge.argsOf('tray.run')).toEqual(['session:ts_one:restart']);
});

it("asks before a tray Stop with the model's words, and stops only on yes", async () => {
  const confirm = {
    title: 'Stop this agent?',
    message: 'The agent on 10.0.0.1 (linux) ends its session and exits.',
    confirmLabel: 'Stop agent',
    destructive: true,
  };
  const tray: TrayModel = {
    icon: { state: 'normal', variant: 'burrow', tooltip: 'Burrow · Acme' },
    title: '1',
    items: [{ ...onTsOne('stop', 'Stop'), confirm }],
  };
  const bridge = scriptedBridge({
    'tray.model': () => tray,
    'tray.run': () => ({ action: tray.items[0], result: null }) as never,
  });
  render(App, { bridge });
  const openTray = () => page.getByRole('button', { name: 'Tray: Burrow · Acme' }).click();
  await openTray();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop this agent?' });
  await expect.element(dialog).toHaveTextContent(confirm.message);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(bridge.argsOf('tray.run')).toBeUndefined();

  await openTray();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Stop agent' }).click();
  await expect.poll(() => bridge.argsOf('tray.run')).toEqual(['session:ts_one:stop']);
});

it('names agents by their JSON metadata, and says why a profile is not watched', async () => {
  openSessions();
  const named = { ...session('ts_json'), metadata: '{"host":"build-box"}' };
  const bridge = scriptedBridge({ 'sessions.snapshot': () => snapshot(named) });
  render(App, { bridge });
  await expect.element(page.getByRole('button', { name: 'build-box' })).toBeVisible();

  const reason =
    'The API key of "Acme" is not in the keychain any more: enter it again in Settings';
  bridge.emit('sessions.changed', {
    paused: false,
    profiles: [unavailableSnapshot(PROFILE, reason)],
  });
  await expect.element(page.getByRole('status').filter({ hasText: reason })).toBeVisible();
  await expect.element(page.getByRole('link', { name: 'Open Settings' })).toBeVisible();
  await expect.element(page.getByText('Looking for online agents…')).not.toBeInTheDocument();
});
