import { describe, expect, it } from 'vitest';
import { trayModel, TRAY_MAX_SESSIONS, type TrayState } from '../../../../core/tray/model.ts';
import type { MonitorHealth, ProfileSnapshot } from '../../../../shared/monitor.ts';
import { followTrayItem, TrayModel, type TrayItem } from '../../../../shared/tray.ts';
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

describe('trayModel', () => {
  it('describes the whole menu as plain JSON that the schema reads back', () => {
    const model = trayModel(state());
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
    const menu = find(trayModel(state()).items, `session:${linux.id}`);
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
        action: { name: `session.${action}`, by: 'core', profileId: 'acme', sessionId: linux.id },
        ...(action === 'stop' && {
          confirm: {
            title: 'Stop this agent?',
            message: `The agent on ${linux.ip} (${linux.os}) ends its session and exits; it has to be started again on its machine.`,
            confirmLabel: 'Stop agent',
            destructive: true,
          },
        }),
      })),
      { type: 'separator', id: `session:${linux.id}:copy` },
      {
        type: 'item',
        id: `session:${linux.id}:copy-id`,
        label: 'Copy session id',
        enabled: true,
        action: { name: 'clipboard.copy', by: 'shell', text: linux.id },
      },
      {
        type: 'item',
        id: `session:${linux.id}:copy-ip`,
        label: 'Copy IP address',
        enabled: true,
        action: { name: 'clipboard.copy', by: 'shell', text: '127.0.0.1' },
      },
    ]);
  });

  it('disables and labels what the rules forbid: restart on Windows, all but stop over SSH', () => {
    const items = trayModel(state()).items;
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
    const model = trayModel(state({}, 'unreachable'));
    expect(model.icon).toMatchObject({ state: 'error', variant: 'burrow-slash' });
    expect(model.icon.tooltip).toBe('The API is unreachable: connection refused');
    expect(model.title).toBe('');
    expect(labels(model.items)[0]).toBe('Acme: API unreachable');
    expect(find(model.items, `session:${linux.id}:stop`)).toMatchObject({
      enabled: false,
      tooltip: 'The API is unreachable: connection refused',
    });
    expect(trayModel(state({}, 'unauthorized')).icon.variant).toBe('burrow-slash');
  });

  it('says why a profile is not monitored, and opens Settings to mend it', () => {
    const unavailable = { ...profile('unavailable', []), healthReason: 'The key is not stored' };
    const model = trayModel(state({ monitor: { paused: false, profiles: [unavailable] } }));
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
    const model = trayModel(state({ unseenOffline: 2 }));
    expect(model.icon).toMatchObject({ state: 'attention', variant: 'burrow-badge' });
    expect(find(model.items, 'unseen')).toMatchObject({
      label: '2 agents went offline',
      action: { name: 'app.open', screen: 'sessions' },
    });
    expect(trayModel(state({}, 'rate-limited')).icon.state).toBe('attention');
  });

  it('switches profiles with checkboxes, the active one checked', () => {
    const menu = find(trayModel(state()).items, 'profiles');
    expect(menu?.type === 'submenu' && menu.items).toEqual([
      {
        type: 'checkbox',
        id: 'profile:acme',
        label: 'Acme',
        enabled: false,
        checked: true,
        action: { name: 'profile.switch', by: 'core', profileId: 'acme' },
      },
      {
        type: 'checkbox',
        id: 'profile:globex',
        label: 'Globex',
        enabled: true,
        checked: false,
        action: { name: 'profile.switch', by: 'core', profileId: 'globex' },
      },
    ]);
  });

  it('pauses notifications for an hour or until tomorrow, and resumes them', () => {
    const running = find(trayModel(state()).items, 'pause');
    expect(running?.type === 'submenu' && labels(running.items)).toEqual([
      'For 1 hour',
      'Until tomorrow morning',
    ]);
    const paused = find(trayModel(state({ doNotDisturbUntil: NOW + 90 * 60_000 })).items, 'pause');
    expect(paused).toMatchObject({ label: 'Notifications paused' });
    expect(paused?.type === 'submenu' && paused.items).toMatchObject([
      { label: 'Paused until 11:30', enabled: false },
      { label: 'Resume notifications', enabled: true, action: { name: 'notifications.resume' } },
    ]);
  });

  it('leaves a long list to the Sessions screen, and says so when nothing is online', () => {
    const many = Array.from({ length: 40 }, (_, i) => session({ metadata: `m${i}` }));
    const model = trayModel(state({ monitor: { paused: false, profiles: [profile('ok', many)] } }));
    expect(
      model.items.filter((i) => i.type === 'submenu' && i.id.startsWith('session:')),
    ).toHaveLength(TRAY_MAX_SESSIONS);
    expect(find(model.items, 'sessions:more')).toMatchObject({ label: '25 more in Burrow…' });
    const none = trayModel(state({ monitor: { paused: true, profiles: [profile('ok', [])] } }));
    expect(find(none.items, 'sessions:none')).toMatchObject({
      label: 'No agents online',
      enabled: false,
    });
    expect(find(none.items, 'paused')).toMatchObject({ label: 'Monitoring paused' });
    expect(none.title).toBe('0');
  });

  it('still makes a menu with no profile at all', () => {
    const model = trayModel(state({ profiles: [], monitor: { paused: false, profiles: [] } }));
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

describe('what a click does, decided once by the model and followed by both shells', () => {
  function shell(confirms: boolean) {
    const done: string[] = [];
    return {
      done,
      confirm: async (request: { title: string }) => {
        done.push(`asked ${request.title}`);
        return confirms;
      },
      runInCore: async (itemId: string) => void done.push(`core ${itemId}`),
      open: (route: string) => void done.push(`open ${route}`),
      copy: (text: string) => void done.push(`copy ${text}`),
      quit: () => void done.push('quit'),
    };
  }
  const clickable = (id: string) => {
    const item = find(trayModel(state()).items, id);
    if (item?.type !== 'item' && item?.type !== 'checkbox') throw new Error(`no item ${id}`);
    return item;
  };

  it('asks before a stop, in the words of the Sessions screen, and stops only on yes', async () => {
    const stop = clickable(`session:${linux.id}:stop`);
    expect(stop.confirm).toMatchObject({
      title: 'Stop this agent?',
      confirmLabel: 'Stop agent',
      destructive: true,
    });
    const no = shell(false);
    await followTrayItem(stop, no);
    expect(no.done).toEqual(['asked Stop this agent?']);
    const yes = shell(true);
    await followTrayItem(stop, yes);
    expect(yes.done).toEqual(['asked Stop this agent?', `core session:${linux.id}:stop`]);
  });

  it('runs the other core items at once and keeps open, copy and quit in the shell', async () => {
    const s = shell(false);
    for (const id of [
      `session:${linux.id}:restart`,
      'profile:globex',
      'pause:hour',
      `session:${linux.id}:copy-ip`,
      'open',
      'quit',
    ])
      await followTrayItem(clickable(id), s);
    expect(s.done).toEqual([
      `core session:${linux.id}:restart`,
      'core profile:globex',
      'core pause:hour',
      `copy ${linux.ip}`,
      'open #/sessions',
      'quit',
    ]);
  });

  it('does nothing for a disabled item', async () => {
    const s = shell(true);
    await followTrayItem(clickable(`session:${windows.id}:restart`), s);
    expect(s.done).toEqual([]);
  });
});
