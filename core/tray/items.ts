import type { TrayAction, TrayItem, TrayScreen } from '../../shared/app/tray.ts';

/* The tray's menu items as data: the few shapes every part of the menu is built from. */

export const separator = (id: string): TrayItem => ({ type: 'separator', id });
export const item = (id: string, label: string, action?: TrayAction, enabled = true): TrayItem => ({
  type: 'item',
  id,
  label,
  enabled,
  ...(action && { action }),
});
export const open = (screen: TrayScreen, profileId?: string, agentId?: string): TrayAction => ({
  name: 'app.open',
  by: 'shell',
  screen,
  ...(profileId !== undefined && { profileId }),
  ...(agentId !== undefined && { agentId }),
});
