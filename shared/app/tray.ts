import { z } from 'zod';
import { ConfirmRequest } from './ipc/dialogs.ts';
import { HOME, routeHref, type Route, type ScreenParams } from './routes.ts';

/*
 * The tray menu as data: core/tray builds it, the Electron tray and the browser mode's tray
 * panel render it. What a click does is data too (who runs the action, whether to ask first), so
 * that both shells follow it with one function, `followTrayItem`, and decide nothing themselves.
 */

const SessionRef = { profileId: z.string(), sessionId: z.string() };

/** The window's screens a tray item can open, and their routes (both shells use the same). */
const TRAY_SCREENS = {
  home: HOME,
  sessions: { screen: 'sessions' },
  settings: { screen: 'settings' },
  activity: { screen: 'activity' },
} as const satisfies Record<string, Route>;
export type TrayScreen = keyof typeof TRAY_SCREENS;
const TrayScreen = z.enum(Object.keys(TRAY_SCREENS) as [TrayScreen, ...TrayScreen[]]);

/**
 * The address of the tray's "Search…": the window opens (or comes forward) with the command
 * palette over the screen it shows, which keeps its own address.
 */
export const SEARCH_HREF = '#/search';

/** Where an `app.open` item goes: its screen, narrowed to a profile (and one of its agents). */
export function trayRoute(open: { screen: TrayScreen; profileId?: string; agentId?: string }) {
  const route = TRAY_SCREENS[open.screen];
  const params: ScreenParams<'sessions'> = {
    ...(open.profileId !== undefined && { profile: open.profileId }),
    ...(open.agentId !== undefined && route.screen === 'sessions' && { agent: open.agentId }),
  };
  return routeHref({ ...route, params });
}

/** Carried out by core, by the item's id (`tray.run`): it checks the item against its model. */
const core = { by: z.literal('core') };
/** Carried out by the shell itself: the window, the clipboard, quitting are the shell's. */
const shell = { by: z.literal('shell') };

export const TrayAction = z.discriminatedUnion('name', [
  z.object({ name: z.literal('session.restart'), ...core, ...SessionRef }),
  z.object({ name: z.literal('session.stop'), ...core, ...SessionRef }),
  z.object({ name: z.literal('session.update'), ...core, ...SessionRef }),
  z.object({ name: z.literal('session.update-and-restart'), ...core, ...SessionRef }),
  z.object({ name: z.literal('profile.switch'), ...core, profileId: z.string() }),
  z.object({
    name: z.literal('notifications.pause'),
    ...core,
    for: z.enum(['hour', 'tomorrow']),
  }),
  z.object({ name: z.literal('notifications.resume'), ...core }),
  /** The person's consent to install the downloaded update: Burrow quits and restarts. */
  z.object({ name: z.literal('app.update'), ...core }),
  z.object({ name: z.literal('clipboard.copy'), ...shell, text: z.string() }),
  z.object({
    name: z.literal('app.open'),
    ...shell,
    screen: TrayScreen,
    /** The profile the screen shows (Sessions) or points out (Settings). */
    profileId: z.string().optional(),
    /** The agent the Sessions screen opens. */
    agentId: z.string().optional(),
  }),
  z.object({ name: z.literal('app.search'), ...shell }),
  z.object({ name: z.literal('app.quit'), ...shell }),
]);
export type TrayAction = z.output<typeof TrayAction>;

const itemBase = {
  id: z.string(),
  label: z.string(),
  enabled: z.boolean(),
  /** Why the item is disabled, or more about it. */
  tooltip: z.string().optional(),
};

/**
 * The separator core puts before the tray's own items (Profile, Pause notifications, Search…):
 * a shell that cannot show the whole menu at once scrolls what comes before it and keeps what
 * follows in view.
 */
export const TRAY_OWN_ITEMS = 'settings';

/** The menu in two: the profiles' sections (and the lines above them), and the tray's own items. */
export function trayMenuParts(items: readonly TrayItem[]): {
  readonly sections: readonly TrayItem[];
  readonly own: readonly TrayItem[];
} {
  const at = items.findIndex((i) => i.type === 'separator' && i.id === TRAY_OWN_ITEMS);
  return at < 0
    ? { sections: items, own: [] }
    : { sections: items.slice(0, at), own: items.slice(at + 1) };
}

/** The item `id` of the menu, at any depth of its submenus. */
export function findTrayItem(items: readonly TrayItem[], id: string): TrayItem | undefined {
  for (const item of items) {
    if (item.id === id) return item;
    if (item.type === 'submenu') {
      const found = findTrayItem(item.items, id);
      if (found) return found;
    }
  }
  return undefined;
}

/** The question both shells ask before the item's action (natively, or in the window). */
export type TrayConfirm = ConfirmRequest;

export type TrayItem =
  | {
      type: 'item';
      id: string;
      label: string;
      enabled: boolean;
      tooltip?: string;
      action?: TrayAction;
      confirm?: TrayConfirm;
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
      confirm?: TrayConfirm;
    }
  | {
      type: 'submenu';
      id: string;
      label: string;
      enabled: boolean;
      tooltip?: string;
      items: TrayItem[];
    };

const TrayItem: z.ZodType<TrayItem> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('item'),
      ...itemBase,
      action: TrayAction.optional(),
      confirm: ConfirmRequest.optional(),
    }),
    z.object({ type: z.literal('separator'), id: z.string() }),
    z.object({
      type: z.literal('checkbox'),
      ...itemBase,
      checked: z.boolean(),
      action: TrayAction,
      confirm: ConfirmRequest.optional(),
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
const TrayIconState = z.enum(['normal', 'attention', 'error']);
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

/** An item a click can reach. */
export type TrayClickable = Extract<TrayItem, { type: 'item' | 'checkbox' }>;

/** What each shell provides for a click on its tray: its own ways of asking, opening, copying. */
export interface TrayShell {
  /** True when the person goes ahead. */
  confirm(request: TrayConfirm): Promise<boolean>;
  /** Asks core to run the item (`tray.run`). */
  runInCore(itemId: string): Promise<unknown>;
  open(route: string): void;
  copy(text: string): Promise<void> | void;
  quit(): void;
}

/**
 * A click on a tray item, the same in both shells: nothing for a disabled item or one without an
 * action; the item's question first if it has one; then its action where the model says it runs.
 */
export async function followTrayItem(item: TrayClickable, shell: TrayShell): Promise<void> {
  const { action } = item;
  if (!action || !item.enabled) return;
  if (item.confirm && !(await shell.confirm(item.confirm))) return;
  if (action.by === 'core') {
    await shell.runInCore(item.id);
    return;
  }
  switch (action.name) {
    case 'app.open':
      return shell.open(trayRoute(action));
    case 'app.search':
      return shell.open(SEARCH_HREF);
    case 'clipboard.copy':
      return shell.copy(action.text);
    case 'app.quit':
      return shell.quit();
  }
}
