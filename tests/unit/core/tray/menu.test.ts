import { describe, expect, it } from 'vitest';
import { trayMenu, TRAY_MAX_SESSIONS, type TrayState } from '../../../../core/tray/menu.ts';
import type { MonitorHealth, ProfileSnapshot } from '../../../../shared/monitor.ts';
import { TrayModel, type TrayItem } from '../../../../shared/tray.ts';
import { session } from '../../../support/tunnel-sessions.ts';

const NOW = new Date(2026, 10, 23, 10, 0).getTime();
const linux = session({ metadata: 'web' });
const windows = session({ metadata: 'build', os: 'windows', agent_version: '3.3.0' });
const ssh = session({ metadata: '', transport: 'ssh', agent_version: 'OpenSSH_9.2p1' });

function profile(health: MonitorHealth, sessions = [linux, windows, ssh]): ProfileSnapshot {
  return {
    profileId: 'acme',
    health,
    healthReason: health === 'ok' ? null : 'connection refused',
    sessions,
    lastPollAt: NOW,
    polls: 3,
    pages: 1,
    intervalMs: 15_000,
  };
}

function state(overrides: Partial<TrayState> = {}, health: MonitorHealth = 'ok'): TrayState {
  return {
    profiles: [
      { id: 'acme', name: 'Acme', active: true },
      { id: 'globex', name: 'Globex', active: false },
    ],
    monitor: { paused: false, profiles: [profile(health)] },
    unseenOffline: 0,
    doNotDisturbUntil: null,
    now: NOW,
    ...overrides,
  };
}

function find(items: TrayItem[], id: string): TrayItem | undefined {
  for (const item of items) {
    if (item.type !== 'separator' && item.id === id) return item;
    if (item.type === 'submenu') {
      const inner = find(item.items, id);
      if (inner) return inner;
    }
  }
  return undefined;
}

const labels = (items: TrayItem[]) => items.map((i) => (i.type === 'separator' ? '---' : i.label));

describe('trayMenu', () => {
  it('describes the whole menu as plain JSON that the schema reads back', () => {
    const model = trayMenu(state());
    expect(TrayModel.parse(JSON.parse(JSON.stringify(model)))).toEqual(model);
    expect(model.icon).toEqual({
      state: 'normal',
      variant: 'burrow',
      tooltip: 'Burrow · Acme: 3 agents online',
    });
    expect(model.title).toBe('3');
    expect(labels(model.items)).toEqual([
      'Acme: 3 agents online',
      '---',
      'web · linux · us · 127.0.0.1 · 3.1.2',
      'build · windows · us · 127.0.0.1 · 3.3.0',
      'linux · us · 127.0.0.1 · OpenSSH_9.2p1',
      '---',
      'Profile',
      'Pause notifications',
      '---',
      'Open Burrow',
      'Quit Burrow',
    ]);
  });

  it('gives each online session its actions, copy id and copy ip', () => {
    const menu = find(trayMenu(state()).items, `session:${linux.id}`);
    expect(menu?.type === 'submenu' && menu.items).toEqual([
      ...(['restart', 'stop', 'update', 'update-and-restart'] as const).map((action) => ({
        type: 'item',
        id: `session:${linux.id}:${action}`,
        label: {
          restart: 'Restart',
          stop: 'Stop',
          update: 'Update',
          'update-and-restart': 'Update and restart',
        }[action],
        enabled: true,
        action: { name: `session.${action}`, profileId: 'acme', sessionId: linux.id },
      })),
      { type: 'separator', id: `session:${linux.id}:copy` },
      {
        type: 'item',
        id: `session:${linux.id}:copy-id`,
        label: 'Copy session id',
        enabled: true,
        action: { name: 'clipboard.copy', text: linux.id },
      },
      {
        type: 'item',
        id: `session:${linux.id}:copy-ip`,
        label: 'Copy IP address',
        enabled: true,
        action: { name: 'clipboard.copy', text: '127.0.0.1' },
      },
    ]);
  });

  it('disables and labels what the rules forbid: restart on Windows, all but stop over SSH', () => {
    const items = trayMenu(state()).items;
    expect(find(items, `session:${windows.id}:restart`)).toMatchObject({
      label: 'Restart (not on Windows)',
      enabled: false,
      tooltip: 'Restart is not supported on Windows agents.',
    });
    expect(find(items, `session:${windows.id}:update`)).toMatchObject({ enabled: true });
    for (const action of ['restart', 'update', 'update-and-restart'])
      expect(find(items, `session:${ssh.id}:${action}`)).toMatchObject({
        label: expect.stringMatching(/\(not on SSH sessions\)$/),
        enabled: false,
      });
    expect(find(items, `session:${ssh.id}:stop`)).toMatchObject({ enabled: true });
  });

  it('shows the error icon, a struck-through shape, and disables actions when the API is out of reach', () => {
    const model = trayMenu(state({}, 'unreachable'));
    expect(model.icon).toMatchObject({ state: 'error', variant: 'burrow-slash' });
    expect(model.icon.tooltip).toBe('The API is unreachable: connection refused');
    expect(model.title).toBe('');
    expect(labels(model.items)[0]).toBe('Acme: API unreachable');
    expect(find(model.items, `session:${linux.id}:stop`)).toMatchObject({
      enabled: false,
      tooltip: 'The API is unreachable: connection refused',
    });
    expect(trayMenu(state({}, 'unauthorized')).icon.variant).toBe('burrow-slash');
  });

  it('says why a profile is not monitored, and opens Settings to mend it', () => {
    const unavailable = { ...profile('unavailable', []), healthReason: 'The key is not stored' };
    const model = trayMenu(state({ monitor: { paused: false, profiles: [unavailable] } }));
    expect(model.icon).toMatchObject({ state: 'error', tooltip: 'The key is not stored' });
    expect(model.title).toBe('');
    expect(labels(model.items).slice(0, 3)).toEqual([
      'Acme: not monitored',
      '---',
      'Not monitored: The key is not stored',
    ]);
    expect(find(model.items, 'sessions:unavailable')).toMatchObject({
      enabled: true,
      action: { name: 'app.open', screen: 'settings' },
    });
  });

  it('asks for attention, with a badge, for agents gone offline unseen', () => {
    const model = trayMenu(state({ unseenOffline: 2 }));
    expect(model.icon).toMatchObject({ state: 'attention', variant: 'burrow-badge' });
    expect(find(model.items, 'unseen')).toMatchObject({
      label: '2 agents went offline',
      action: { name: 'app.open', screen: 'sessions' },
    });
    expect(trayMenu(state({}, 'rate-limited')).icon.state).toBe('attention');
  });

  it('switches profiles with checkboxes, the active one checked', () => {
    const menu = find(trayMenu(state()).items, 'profiles');
    expect(menu?.type === 'submenu' && menu.items).toEqual([
      {
        type: 'checkbox',
        id: 'profile:acme',
        label: 'Acme',
        enabled: false,
        checked: true,
        action: { name: 'profile.switch', profileId: 'acme' },
      },
      {
        type: 'checkbox',
        id: 'profile:globex',
        label: 'Globex',
        enabled: true,
        checked: false,
        action: { name: 'profile.switch', profileId: 'globex' },
      },
    ]);
  });

  it('pauses notifications for an hour or until tomorrow, and resumes them', () => {
    const running = find(trayMenu(state()).items, 'pause');
    expect(running?.type === 'submenu' && labels(running.items)).toEqual([
      'For 1 hour',
      'Until tomorrow morning',
    ]);
    const paused = find(trayMenu(state({ doNotDisturbUntil: NOW + 90 * 60_000 })).items, 'pause');
    expect(paused).toMatchObject({ label: 'Notifications paused' });
    expect(paused?.type === 'submenu' && paused.items).toMatchObject([
      { label: 'Paused until 11:30', enabled: false },
      { label: 'Resume notifications', enabled: true, action: { name: 'notifications.resume' } },
    ]);
  });

  it('leaves a long list to the Sessions screen, and says so when nothing is online', () => {
    const many = Array.from({ length: 40 }, (_, i) => session({ metadata: `m${i}` }));
    const model = trayMenu(state({ monitor: { paused: false, profiles: [profile('ok', many)] } }));
    expect(
      model.items.filter((i) => i.type === 'submenu' && i.id.startsWith('session:')),
    ).toHaveLength(TRAY_MAX_SESSIONS);
    expect(find(model.items, 'sessions:more')).toMatchObject({ label: '25 more in Burrow…' });
    const none = trayMenu(state({ monitor: { paused: true, profiles: [profile('ok', [])] } }));
    expect(find(none.items, 'sessions:none')).toMatchObject({
      label: 'No agents online',
      enabled: false,
    });
    expect(find(none.items, 'paused')).toMatchObject({ label: 'Monitoring paused' });
    expect(none.title).toBe('0');
  });

  it('still makes a menu with no profile at all', () => {
    const model = trayMenu(state({ profiles: [], monitor: { paused: false, profiles: [] } }));
    expect(labels(model.items)).toEqual([
      'No profile',
      '---',
      'Pause notifications',
      '---',
      'Open Burrow',
      'Quit Burrow',
    ]);
    expect(model.icon.state).toBe('normal');
  });
});
