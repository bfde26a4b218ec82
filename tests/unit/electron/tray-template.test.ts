import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { trayIconFile, trayTemplate, trayTexts } from '../../../electron/tray-template.ts';
import type { TrayAction, TrayModel } from '../../../shared/app/tray.ts';

const restart: TrayAction = {
  name: 'session.restart',
  by: 'core',
  profileId: 'acme',
  sessionId: 'ts_1',
};
const stop: TrayAction = { ...restart, name: 'session.stop' };
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
      action: { name: 'notifications.resume', by: 'core' },
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

  it('hands a click back as the item, to follow as it says', () => {
    const click = vi.fn();
    const template = trayTemplate(model.items, click);
    const submenu = template[2]?.submenu;
    if (!Array.isArray(submenu)) throw new Error('no submenu');
    (submenu[0]!.click as () => void)();
    expect(click).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'ts_1.restart', action: restart }),
    );
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
