import type { MenuItemConstructorOptions } from 'electron';
import type { TrayClickable, TrayIconState, TrayItem, TrayModel } from '../shared/app/tray.ts';
import { TRAY_ICONS } from '../shared/app/tray.ts';

/*
 * core's tray model (core/tray/model.ts) → the template Electron's Menu takes. Pure, so the whole
 * rendering is tested without Electron; electron/tray.ts hands the result to the real Tray.
 */

/** A click on an item with an action; what it does is the item's to say (`followTrayItem`). */
export type TrayClick = (item: TrayClickable) => void;

export function trayTemplate(
  items: readonly TrayItem[],
  click: TrayClick,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { id: item.id, type: 'separator' };
      case 'submenu':
        return {
          id: item.id,
          label: item.label,
          enabled: item.enabled,
          toolTip: item.tooltip,
          submenu: trayTemplate(item.items, click),
        };
      case 'checkbox':
      case 'item':
        return {
          id: item.id,
          label: item.label,
          enabled: item.enabled,
          toolTip: item.tooltip,
          ...(item.type === 'checkbox' ? { type: 'checkbox', checked: item.checked } : {}),
          ...(item.action ? { click: () => click(item) } : {}),
        };
    }
  });
}

/**
 * The icon file for a state, under build/tray/. macOS takes black-and-alpha template images
 * (`…Template.png`, with its @2x beside it) that the menu bar tints; elsewhere a coloured PNG.
 */
export function trayIconFile(state: TrayIconState, platform: NodeJS.Platform): string {
  const name = TRAY_ICONS[state];
  return platform === 'darwin' ? `${name}Template.png` : `${name}.png`;
}

/** The count goes beside the icon in the macOS menu bar; elsewhere there is no title, so in the tooltip. */
export function trayTexts(
  model: TrayModel,
  platform: NodeJS.Platform,
): { title: string; tooltip: string } {
  if (platform === 'darwin') return { title: model.title, tooltip: model.icon.tooltip };
  const tooltip = model.title ? `${model.icon.tooltip} (${model.title})` : model.icon.tooltip;
  return { title: '', tooltip };
}
