import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AUTOSTART_FILE, autostartDir, autostartEntry } from '../../../electron/autostart.ts';
import { electronDialogs } from '../../../electron/dialogs.ts';
import { applyLaunchAtLogin } from '../../../electron/login-item.ts';
import { forwardNotifications, type NotificationHandlers } from '../../../electron/notify.ts';
import { powerPauser } from '../../../electron/power.ts';
import { closeWithin, quitGate } from '../../../electron/quit.ts';
import { opensWindowAtStart } from '../../../electron/startup.ts';
import { placeWindow, readBounds } from '../../../electron/window-state.ts';
import type { BrowserWindow, NotificationConstructorOptions } from 'electron';
import type { Notification } from '../../../shared/app/notifications.ts';
import { standInDialog, standInLoginApp } from '../../support/electron-stand-in.ts';

describe('notifications', () => {
  function forward(platform: NodeJS.Platform) {
    const listeners: ((n: Notification) => void)[] = [];
    const shown: { options: NotificationConstructorOptions; on: NotificationHandlers }[] = [];
    const opened: string[] = [];
    const acted: string[] = [];
    const reported: unknown[] = [];
    forwardNotifications(
      {
        onNotification: (l) => (listeners.push(l), () => {}),
        act: async (id, action) => {
          acted.push(`${id} ${action}`);
          if (action === 'mute') throw new Error('full');
        },
      },
      (options, on) => shown.push({ options, on }),
      { openWindow: (route) => opened.push(route), report: (e) => reported.push(e), platform },
    );
    const tell = (n: Notification) => listeners.forEach((l) => l(n));
    return { tell, shown, opened, acted, reported };
  }
  const offline: Notification = {
    id: 'n1',
    kind: 'offline',
    title: 'web went offline',
    body: 'Gone at 09:41.',
    target: { type: 'agent', profileId: 'prf_a', agentId: 'ag 1/x' },
    actions: ['open', 'restart', 'mute'],
    agent: { profileId: 'prf_a', sessionId: 'ts_1', agentKey: '[]' },
  };

  it('clicking one opens the window at its agent or certificate', () => {
    const { tell, shown, opened } = forward('linux');
    tell(offline);
    tell({ ...offline, target: { type: 'certificate', certId: 'sshcr_9' }, actions: ['open'] });
    shown.forEach(({ on }) => on.click());
    expect(opened).toEqual(['#/sessions?profile=prf_a&agent=ag%201%2Fx', '#/ssh?cert=sshcr_9']);
  });

  it('has buttons for its actions on macOS and Windows only; Open opens, the others go to core', async () => {
    const linux = forward('linux');
    linux.tell(offline);
    expect(linux.shown[0]?.options).toEqual({ title: offline.title, body: offline.body });
    for (const platform of ['darwin', 'win32'] as const) {
      const { tell, shown, opened, acted, reported } = forward(platform);
      tell(offline);
      expect(shown[0]?.options.actions).toEqual([
        { type: 'button', text: 'Open' },
        { type: 'button', text: 'Restart' },
        { type: 'button', text: 'Mute this agent' },
      ]);
      [0, 1, 2, 7].forEach((index) => shown[0]?.on.action(index));
      expect(opened).toEqual(['#/sessions?profile=prf_a&agent=ag%201%2Fx']);
      expect(acted).toEqual(['n1 restart', 'n1 mute']);
      await vi.waitFor(() => expect(reported).toEqual([new Error('full')]));
    }
  });
});

describe('window bounds', () => {
  const laptop = { x: 0, y: 0, width: 1440, height: 875 };
  const monitor = { x: 1440, y: 0, width: 2560, height: 1415 };

  it('keeps bounds that fit where they were', () => {
    const saved = { x: 1600, y: 100, width: 1200, height: 800 };
    expect(placeWindow(saved, [laptop, monitor])).toEqual(saved);
  });

  it('brings a window from a display that is gone back onto the primary one, shrunk to fit', () => {
    const saved = { x: 3000, y: 200, width: 2000, height: 1300 };
    expect(placeWindow(saved, [laptop])).toEqual({ x: 0, y: 0, width: 1440, height: 875 });
  });

  it('pulls a window hanging off an edge back inside', () => {
    expect(placeWindow({ x: -300, y: 700, width: 1000, height: 600 }, [laptop])).toEqual({
      x: 0,
      y: 275,
      width: 1000,
      height: 600,
    });
  });

  it('starts at the default size, centred, without saved bounds', () => {
    expect(placeWindow(readBounds(undefined), [laptop])).toEqual({ width: 1100, height: 720 });
    expect(readBounds({ x: 1, y: 2, width: 'wide', height: 3 })).toBeUndefined();
  });
});

describe('launch at login', () => {
  it('writes an XDG autostart entry on Linux and removes it when switched off', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'burrow-autostart-'));
    const env = {
      XDG_CONFIG_HOME: path.join(home, 'cfg'),
      APPIMAGE: '/opt/My Apps/Burrow.AppImage',
    };
    const dir = autostartDir(env, home);
    expect(dir).toBe(path.join(home, 'cfg', 'autostart'));
    await applyLaunchAtLogin(true, standInLoginApp(), 'linux', env);
    const file = path.join(dir, AUTOSTART_FILE);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('Exec="/opt/My Apps/Burrow.AppImage" --hidden\n');
    expect(text.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o644);

    await writeFile(path.join(dir, 'other.desktop'), 'x');
    await applyLaunchAtLogin(false, standInLoginApp(), 'linux', env);
    expect(await readdir(dir)).toEqual(['other.desktop']);
  });

  it('falls back to ~/.config/autostart and escapes the Exec path', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: 'relative' }, '/home/a')).toBe(
      '/home/a/.config/autostart',
    );
    expect(autostartEntry('/a/"b$c', 'Burrow')).toContain('Exec="/a/\\"b\\$c" --hidden');
  });

  it('uses the OS login items on macOS and Windows', async () => {
    const app = standInLoginApp();
    await applyLaunchAtLogin(true, app, 'darwin');
    await applyLaunchAtLogin(false, app, 'win32');
    expect(app.loginItems).toEqual([
      { openAtLogin: true, args: ['--hidden'] },
      { openAtLogin: false, args: ['--hidden'] },
    ]);
  });
});

describe('native dialogs (with a stand-in for Electron’s dialog)', () => {
  const window = {} as BrowserWindow;

  it('answers a chosen folder, modal to the window when there is one', async () => {
    const api = standInDialog({ folder: '/home/a/.ssh' });
    const answer = await electronDialogs(api, () => window).chooseFolder({ title: 'Save keys in' });
    expect(answer).toEqual({ status: 'chosen', path: '/home/a/.ssh' });
    expect(api.calls[0]?.[1]).toBe(window);
  });

  it('answers cancelled when the person closes the dialog', async () => {
    const dialogs = electronDialogs(standInDialog({}), () => undefined);
    expect(await dialogs.chooseFolder({ title: 't' })).toEqual({ status: 'cancelled' });
    expect(await dialogs.saveFile({ title: 't', extensions: ['pub'] })).toEqual({
      status: 'cancelled',
    });
  });

  it('confirms only on the first button, with Cancel as the default for a destructive one', async () => {
    const request = {
      title: 'Stop?',
      message: 'm',
      confirmLabel: 'Stop session',
      destructive: true,
    };
    const api = standInDialog({ button: 0 });
    expect(await electronDialogs(api, () => undefined).confirm(request)).toEqual({
      status: 'confirmed',
    });
    expect(api.calls[0]?.[2]).toMatchObject({
      buttons: ['Stop session', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    });
    const declined = await electronDialogs(standInDialog({ button: 1 }), () => undefined).confirm(
      request,
    );
    expect(declined).toEqual({ status: 'declined' });
  });
});

describe('start, power and quit', () => {
  const first = { argv: [], launchedBefore: false, openedAtLogin: false };

  it('opens the window on the first launch only, never at login', () => {
    expect(opensWindowAtStart(first)).toBe(true);
    expect(opensWindowAtStart({ ...first, launchedBefore: true })).toBe(false);
    expect(opensWindowAtStart({ ...first, argv: ['--hidden'] })).toBe(false);
    expect(opensWindowAtStart({ ...first, openedAtLogin: true })).toBe(false);
  });

  it('pauses the monitor while asleep or locked, and resumes when neither holds', () => {
    const monitor = { pause: vi.fn(), resume: vi.fn() };
    const pauser = powerPauser(monitor);
    pauser.begin('lock-screen');
    pauser.begin('suspend');
    pauser.end('suspend');
    expect(monitor.resume).not.toHaveBeenCalled();
    pauser.end('lock-screen');
    pauser.end('lock-screen');
    expect(monitor.pause).toHaveBeenCalledTimes(1);
    expect(monitor.resume).toHaveBeenCalledTimes(1);
  });

  it('quits within the timeout even when closing hangs', async () => {
    expect(await closeWithin(() => Promise.resolve(), 50)).toBe('closed');
    expect(await closeWithin(() => Promise.reject(new Error('x')), 50)).toBe('closed');
    expect(await closeWithin(() => new Promise(() => {}), 20)).toBe('timed-out');
  });

  it("asks core's question before quitting, once, and not again after the tray's Quit asked", async () => {
    const question = {
      title: 'Quit Burrow?',
      message: 'A rollout is running.',
      confirmLabel: 'Quit',
    };
    let running: typeof question | null = null;
    const asked: string[] = [];
    let answer = false;
    const gate = quitGate(
      () => running,
      (request) => {
        asked.push(request.message);
        return Promise.resolve(answer);
      },
    );
    expect(await gate.allowed()).toBe(true);
    running = question;
    expect(await Promise.all([gate.allowed(), gate.allowed()])).toEqual([false, false]);
    expect(asked).toEqual(['A rollout is running.']);
    answer = true;
    expect(await gate.allowed()).toBe(true);
    gate.confirmed();
    expect(await gate.allowed()).toBe(true);
    expect(asked).toHaveLength(2);
  });
});
