import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { trayIconFile, trayTemplate, trayTexts } from '../../../electron/tray-menu.ts';
import { trayActionRunner, type TrayActionDeps } from '../../../electron/tray-actions.ts';
import type { Confirmation } from '../../../shared/ipc/dialogs.ts';
import type { TrayAction, TrayModel } from '../../../shared/tray.ts';

const stop: TrayAction = { name: 'session.stop', profileId: 'acme', sessionId: 'ts_1' };
const restart: TrayAction = { name: 'session.restart', profileId: 'acme', sessionId: 'ts_1' };
const model: TrayModel = {
  icon: { state: 'attention', variant: 'burrow-badge', tooltip: 'Burrow — 1 agent offline' },
  title: '3',
  items: [
    { type: 'item', id: 'header', label: 'Acme', enabled: false, tooltip: 'active profile' },
    { type: 'separator', id: 'sep' },
    {
      type: 'submenu',
      id: 'ts_1',
      label: 'web (linux)',
      enabled: true,
      items: [
        { type: 'item', id: 'ts_1.restart', label: 'Restart', enabled: true, action: restart },
        { type: 'item', id: 'ts_1.stop', label: 'Stop…', enabled: true, action: stop },
      ],
    },
    {
      type: 'checkbox',
      id: 'pause',
      label: 'Pause notifications',
      enabled: true,
      checked: true,
      action: { name: 'notifications.resume' },
    },
  ],
};

describe('the tray model rendered as an Electron menu template', () => {
  it('keeps ids, labels, enabled, tooltips, checkboxes and submenus', () => {
    const template = trayTemplate(model.items, () => {});
    expect(template.map(({ click: _, submenu: __, ...rest }) => rest)).toEqual([
      { id: 'header', label: 'Acme', enabled: false, toolTip: 'active profile' },
      { id: 'sep', type: 'separator' },
      { id: 'ts_1', label: 'web (linux)', enabled: true, toolTip: undefined },
      {
        id: 'pause',
        label: 'Pause notifications',
        enabled: true,
        toolTip: undefined,
        type: 'checkbox',
        checked: true,
      },
    ]);
    expect(template[0]?.click).toBeUndefined();
    expect(Array.isArray(template[2]?.submenu) && template[2].submenu.map((i) => i.id)).toEqual([
      'ts_1.restart',
      'ts_1.stop',
    ]);
  });

  it('hands a click back as the item’s action and id', () => {
    const run = vi.fn();
    const template = trayTemplate(model.items, run);
    const submenu = template[2]?.submenu;
    if (!Array.isArray(submenu)) throw new Error('no submenu');
    (submenu[0]?.click as () => void)();
    expect(run).toHaveBeenCalledWith(restart, 'ts_1.restart');
  });

  it('uses template images on macOS and shaped PNGs elsewhere', () => {
    expect(trayIconFile('normal', 'darwin')).toBe('burrowTemplate.png');
    expect(trayIconFile('attention', 'linux')).toBe('burrow-badge.png');
    expect(trayIconFile('error', 'win32')).toBe('burrow-slash.png');
  });

  it('has every icon it names in build/tray, at 1x and 2x', () => {
    const dir = path.resolve(import.meta.dirname, '../../../build/tray');
    for (const state of ['normal', 'attention', 'error'] as const)
      for (const platform of ['darwin', 'linux', 'win32'] as const) {
        const file = trayIconFile(state, platform);
        expect(existsSync(path.join(dir, file))).toBe(true);
        expect(existsSync(path.join(dir, file.replace('.png', '@2x.png')))).toBe(true);
      }
  });

  it('puts the count in the macOS title, and in the tooltip elsewhere', () => {
    expect(trayTexts(model, 'darwin')).toEqual({ title: '3', tooltip: 'Burrow — 1 agent offline' });
    expect(trayTexts(model, 'linux')).toEqual({
      title: '',
      tooltip: 'Burrow — 1 agent offline (3)',
    });
    expect(trayTexts({ ...model, title: '' }, 'win32').tooltip).toBe('Burrow — 1 agent offline');
  });
});

describe('tray actions', () => {
  function deps(answer: Confirmation['status']) {
    return {
      run: vi.fn(() => Promise.resolve()),
      confirm: vi.fn(() => Promise.resolve({ status: answer } as Confirmation)),
      openWindow: vi.fn(),
      copy: vi.fn(),
      quit: vi.fn(),
      report: vi.fn(),
    } satisfies TrayActionDeps;
  }

  it('stops a session only after the native confirmation', async () => {
    const yes = deps('confirmed');
    trayActionRunner(yes)(stop, 'ts_1.stop');
    await vi.waitFor(() => expect(yes.run).toHaveBeenCalledWith('ts_1.stop'));
    expect(yes.confirm).toHaveBeenCalledWith(expect.objectContaining({ destructive: true }));

    const no = deps('declined');
    trayActionRunner(no)(stop, 'ts_1.stop');
    await vi.waitFor(() => expect(no.confirm).toHaveBeenCalled());
    await Promise.resolve();
    expect(no.run).not.toHaveBeenCalled();
  });

  it('runs other session actions through core at once, and reports a failure', async () => {
    const d = deps('declined');
    d.run.mockRejectedValueOnce(new Error('429'));
    trayActionRunner(d)(restart, 'ts_1.restart');
    expect(d.confirm).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(d.report).toHaveBeenCalled());
  });

  it('keeps open, copy and quit in the shell', () => {
    const d = deps('confirmed');
    const run = trayActionRunner(d);
    run({ name: 'app.open', screen: 'sessions' }, 'open');
    run({ name: 'clipboard.copy', text: 'ts_1' }, 'ts_1.copy-id');
    run({ name: 'app.quit' }, 'quit');
    expect(d.openWindow).toHaveBeenCalledWith('#/sessions');
    expect(d.copy).toHaveBeenCalledWith('ts_1');
    expect(d.quit).toHaveBeenCalled();
    expect(d.run).not.toHaveBeenCalled();
  });
});
