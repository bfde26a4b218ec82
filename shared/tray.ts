import { z } from 'zod';
import { HOME, routeHref, type Route } from './routes.ts';

/*
 * The tray menu as data: core/tray builds it, the Electron tray and the browser mode's tray
 * panel render it, and a click comes back as the item's action. Plain JSON for the IPC contract.
 */

const SessionRef = { profileId: z.string(), sessionId: z.string() };

/** The window's screens a tray item can open, and their routes (both shells use the same). */
const TRAY_SCREENS = {
  home: HOME,
  sessions: { screen: 'sessions' },
  settings: { screen: 'settings' },
} as const satisfies Record<string, Route>;
export type TrayScreen = keyof typeof TRAY_SCREENS;
export const screenRoute = (screen: TrayScreen): string => routeHref(TRAY_SCREENS[screen]);

export const TrayAction = z.discriminatedUnion('name', [
  z.object({ name: z.literal('session.restart'), ...SessionRef }),
  z.object({ name: z.literal('session.stop'), ...SessionRef }),
  z.object({ name: z.literal('session.update'), ...SessionRef }),
  z.object({ name: z.literal('session.update-and-restart'), ...SessionRef }),
  z.object({ name: z.literal('clipboard.copy'), text: z.string() }),
  z.object({ name: z.literal('profile.switch'), profileId: z.string() }),
  z.object({ name: z.literal('notifications.pause'), for: z.enum(['hour', 'tomorrow']) }),
  z.object({ name: z.literal('notifications.resume') }),
  z.object({ name: z.literal('app.open'), screen: z.enum(['home', 'sessions', 'settings']) }),
  z.object({ name: z.literal('app.quit') }),
]);
export type TrayAction = z.output<typeof TrayAction>;

const itemBase = {
  id: z.string(),
  label: z.string(),
  enabled: z.boolean(),
  /** Why the item is disabled, or more about it. */
  tooltip: z.string().optional(),
};

export type TrayItem =
  | {
      type: 'item';
      id: string;
      label: string;
      enabled: boolean;
      tooltip?: string;
      action?: TrayAction;
    }
  | { type: 'separator'; id: string }
  | {
      type: 'checkbox';
      id: string;
      label: string;
      enabled: boolean;
      tooltip?: string;
      checked: boolean;
      action: TrayAction;
    }
  | {
      type: 'submenu';
      id: string;
      label: string;
      enabled: boolean;
      tooltip?: string;
      items: TrayItem[];
    };

export const TrayItem: z.ZodType<TrayItem> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('item'), ...itemBase, action: TrayAction.optional() }),
    z.object({ type: z.literal('separator'), id: z.string() }),
    z.object({
      type: z.literal('checkbox'),
      ...itemBase,
      checked: z.boolean(),
      action: TrayAction,
    }),
    z.object({ type: z.literal('submenu'), ...itemBase, items: z.array(TrayItem) }),
  ]),
);

/**
 * The icon's three states differ in shape, not only in colour: `burrow` (the plain mark),
 * `burrow-badge` (the mark with a dot: something to look at), `burrow-slash` (the mark struck
 * through: the API cannot be reached or refuses the key).
 */
export const TRAY_ICONS = {
  normal: 'burrow',
  attention: 'burrow-badge',
  error: 'burrow-slash',
} as const;
export const TrayIconState = z.enum(['normal', 'attention', 'error']);
export type TrayIconState = z.output<typeof TrayIconState>;

export const TrayModel = z.object({
  icon: z.object({
    state: TrayIconState,
    variant: z.enum(['burrow', 'burrow-badge', 'burrow-slash']),
    tooltip: z.string(),
  }),
  /** Beside the icon (macOS menu bar): the active profile's online agents, or empty. */
  title: z.string(),
  items: z.array(TrayItem),
});
export type TrayModel = z.output<typeof TrayModel>;
