import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type {
  App,
  BrowserWindow as ElectronBrowserWindow,
  BrowserWindowConstructorOptions,
  Clipboard,
  Dialog,
  Display,
  IpcMain,
  IpcMainInvokeEvent,
  Menu as ElectronMenu,
  MenuItemConstructorOptions,
  NativeImage,
  Net,
  Notification as ElectronNotification,
  NotificationConstructorOptions,
  PowerMonitor,
  Protocol,
  Rectangle,
  Screen,
  Session,
  Shell,
  Tray as ElectronTray,
  WebContents,
  WebRequestFilter,
} from 'electron';
import type { FromStandIn, ToStandIn } from './messages.ts';

/*
 * The `electron` module as the built main process sees it when booted under Node: every part
 * dist/electron/main.js (and electron-store) touches, each typed against Electron's own
 * definitions (`satisfies Pick<…>`), so a stand-in that drifts from the real API fails the
 * typecheck. What the app asks of it is told to the test (process.send); the test drives it
 * back (an IPC call from the page, quitting).
 */

const tell = (message: FromStandIn) => process.send?.(message);
const dataDir = process.env['BURROW_STAND_IN_DATA'] ?? '';
mkdirSync(dataDir, { recursive: true });

// Electron's listeners take an Electron event first; the glue reads only preventDefault.
type StandInEvent = { defaultPrevented: boolean; preventDefault(): void };
const standInEvent = (): StandInEvent => ({
  defaultPrevented: false,
  preventDefault() {
    this.defaultPrevented = true;
  },
});

let ready: () => void = () => undefined;
const whenReady = new Promise<void>((resolve) => (ready = resolve));

class StandInApp
  extends EventEmitter
  implements
    Pick<
      App,
      | 'enableSandbox'
      | 'requestSingleInstanceLock'
      | 'quit'
      | 'exit'
      | 'whenReady'
      | 'getVersion'
      | 'getName'
      | 'getPath'
      | 'getAppPath'
      | 'getLoginItemSettings'
      | 'setLoginItemSettings'
      | 'setAppUserModelId'
    >
{
  dock: App['dock'] = undefined;
  enableSandbox(): void {
    tell({ what: 'sandbox' });
  }
  requestSingleInstanceLock(): boolean {
    tell({ what: 'lock' });
    return true;
  }
  quit(): void {
    const event = standInEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(exitCode = 0): void {
    tell({ what: 'exit', code: exitCode });
    // Let the message out before the process ends.
    setImmediate(() => process.exit(exitCode));
  }
  whenReady(): Promise<void> {
    return whenReady;
  }
  getVersion(): string {
    return '0.0.0-stand-in';
  }
  getName(): string {
    return 'Burrow';
  }
  getPath(name: Parameters<App['getPath']>[0]): string {
    if (name !== 'userData') throw new Error(`the stand-in has no path "${name}"`);
    return dataDir;
  }
  getAppPath(): string {
    // The app's folder as the test booted it: the repository, or a package's extracted asar.
    return (
      process.env['BURROW_STAND_IN_APP_PATH'] ?? path.resolve(import.meta.dirname, '../../../..')
    );
  }
  getLoginItemSettings(): ReturnType<App['getLoginItemSettings']> {
    return {
      openAtLogin: false,
      wasOpenedAtLogin: false,
      status: 'not-registered',
      executableWillLaunchAtLogin: false,
      launchItems: [],
    };
  }
  setLoginItemSettings(): void {}
  setAppUserModelId(): void {}
}
export const app = new StandInApp();

type InvokeHandler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;
const handlers = new Map<string, InvokeHandler>();
export const ipcMain = {
  handle(channel: string, listener: InvokeHandler) {
    handlers.set(channel, listener);
    tell({ what: 'ipc.handle', channel });
  },
  // electron-store answers its renderer-side copy on this channel.
  on(): IpcMain {
    return this as unknown as IpcMain;
  },
} satisfies Pick<IpcMain, 'handle' | 'on'>;

class StandInContents
  extends EventEmitter
  implements Pick<WebContents, 'getURL' | 'isDestroyed' | 'setWindowOpenHandler' | 'send'>
{
  url = '';
  destroyed = false;
  readonly mainFrame = { url: '' };
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(): void {}
  send(channel: string, ...args: unknown[]): void {
    tell({ what: 'event', channel, payload: args[0] });
  }
}
const allContents: StandInContents[] = [];
export const webContents = {
  getAllWebContents: () => allContents as unknown as WebContents[],
};

export class BrowserWindow
  extends EventEmitter
  implements
    Pick<
      ElectronBrowserWindow,
      | 'loadURL'
      | 'show'
      | 'focus'
      | 'isMinimized'
      | 'restore'
      | 'getNormalBounds'
      | 'isDestroyed'
      | 'close'
    >
{
  readonly webContents = new StandInContents();
  constructor(options: BrowserWindowConstructorOptions) {
    super();
    allContents.push(this.webContents);
    tell({ what: 'window', webPreferences: options.webPreferences ?? {} });
  }
  loadURL(url: string): Promise<void> {
    this.webContents.url = url;
    this.webContents.mainFrame.url = url;
    tell({ what: 'load', url });
    setImmediate(() => this.emit('ready-to-show'));
    return Promise.resolve();
  }
  show(): void {
    tell({ what: 'show' });
  }
  focus(): void {}
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  getNormalBounds(): Rectangle {
    return { x: 0, y: 0, width: 1100, height: 720 };
  }
  isDestroyed(): boolean {
    return this.webContents.destroyed;
  }
  close(): void {
    this.emit('close', standInEvent());
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}

const display = {
  workArea: { x: 0, y: 0, width: 1920, height: 1080 },
} as Display;
export const screen = {
  getPrimaryDisplay: () => display,
  getAllDisplays: () => [display],
} satisfies Pick<Screen, 'getPrimaryDisplay' | 'getAllDisplays'>;

export const shell = {
  openExternal: () => Promise.resolve(),
  openPath: () => Promise.resolve(''),
} satisfies Pick<Shell, 'openExternal' | 'openPath'>;

export const protocol = {
  registerSchemesAsPrivileged: (schemes) =>
    tell({ what: 'schemes', schemes: schemes.map((s) => s.scheme) }),
  handle: (scheme) => tell({ what: 'protocol', scheme }),
} satisfies Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;

export const net = {
  fetch: (input) => fetch(input),
} satisfies Pick<Net, 'fetch'>;

// The headers every response gets, and which of these asks each permission handler grants (the
// app's page, another site, a frame inside the app's page), read back at once.
type HeadersListener = Parameters<Session['webRequest']['onHeadersReceived']>[0];
type PermissionHandler = Parameters<Session['setPermissionRequestHandler']>[0];
type CheckHandler = Parameters<Session['setPermissionCheckHandler']>[0];
const APP_PAGE = 'app://burrow/index.html';
const PERMISSION_ASKS = [
  ['notifications', APP_PAGE, true],
  ['media', APP_PAGE, true],
  ['clipboard-read', APP_PAGE, true],
  ['clipboard-sanitized-write', APP_PAGE, true],
  ['clipboard-sanitized-write', 'https://example.com/', true],
  ['clipboard-sanitized-write', APP_PAGE, false],
] as const;
const asked = ([permission, url, isMainFrame]: (typeof PERMISSION_ASKS)[number]) =>
  `${permission} ${url}${isMainFrame ? '' : ' (a frame)'}`;
const defaultSession = {
  webRequest: {
    onHeadersReceived(first: WebRequestFilter | HeadersListener, second?: HeadersListener) {
      const listener = typeof first === 'function' ? first : second;
      listener?.({ responseHeaders: {} } as never, (response) =>
        tell({ what: 'headers', headers: response.responseHeaders ?? {} }),
      );
    },
  },
  setPermissionRequestHandler(handler: PermissionHandler) {
    const granted: string[] = [];
    for (const ask of PERMISSION_ASKS) {
      const [permission, requestingUrl, isMainFrame] = ask;
      handler?.({} as WebContents, permission, (yes) => void (yes && granted.push(asked(ask))), {
        requestingUrl,
        isMainFrame,
      });
    }
    tell({ what: 'permissions', by: 'request', granted });
  },
  setPermissionCheckHandler(handler: CheckHandler) {
    const granted = PERMISSION_ASKS.filter(
      ([permission, requestingUrl, isMainFrame]) =>
        handler?.(null, permission, new URL(requestingUrl).origin, {
          requestingUrl,
          isMainFrame,
        }) === true,
    ).map(asked);
    tell({ what: 'permissions', by: 'check', granted });
  },
} satisfies Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'> & {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
};
export const session = { defaultSession };

export const nativeImage = {
  createFromPath: (file: string) => ({ file }) as unknown as NativeImage,
};

export class Tray implements Pick<
  ElectronTray,
  'setImage' | 'setTitle' | 'setToolTip' | 'setContextMenu' | 'destroy'
> {
  constructor(image: NativeImage) {
    tell({ what: 'tray.icon', file: (image as unknown as { file: string }).file });
  }
  setImage(): void {}
  setTitle(): void {}
  setToolTip(tooltip: string): void {
    tell({ what: 'tray.tooltip', tooltip });
  }
  setContextMenu(menu: ElectronMenu | null): void {
    const labels = (items: MenuItemConstructorOptions[]): string[] =>
      items.flatMap((i) => [
        ...(i.label ? [i.label] : []),
        ...(Array.isArray(i.submenu) ? labels(i.submenu) : []),
      ]);
    tell({ what: 'tray.menu', labels: labels(menu as unknown as MenuItemConstructorOptions[]) });
  }
  destroy(): void {
    tell({ what: 'tray.destroyed' });
  }
}

export const Menu = {
  buildFromTemplate: (template: MenuItemConstructorOptions[]) =>
    template as unknown as ElectronMenu,
} satisfies Pick<typeof ElectronMenu, 'buildFromTemplate'>;

export class Notification
  extends EventEmitter
  implements Pick<ElectronNotification, 'show' | 'close'>
{
  static isSupported(): boolean {
    return true;
  }
  constructor(private readonly options: NotificationConstructorOptions) {
    super();
  }
  show(): void {
    tell({ what: 'notification', title: this.options.title ?? '', body: this.options.body ?? '' });
  }
  close(): void {
    this.emit('close');
  }
}

export const powerMonitor = new EventEmitter() as EventEmitter & Pick<PowerMonitor, 'on'>;
export const clipboard = { writeText: () => Promise.resolve() } satisfies Pick<
  Clipboard,
  'writeText'
>;
export const dialog = {
  showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }),
  showSaveDialog: () => Promise.resolve({ canceled: true, filePath: '' }),
  showMessageBox: () => Promise.resolve({ response: 1, checkboxChecked: false }),
} satisfies Pick<Dialog, 'showOpenDialog' | 'showSaveDialog' | 'showMessageBox'>;

export default {
  app,
  ipcMain,
  webContents,
  BrowserWindow,
  screen,
  shell,
  protocol,
  net,
  session,
  nativeImage,
  Tray,
  Menu,
  Notification,
  powerMonitor,
  clipboard,
  dialog,
};

/** The test's side: a call from the window's page, or quitting. */
process.on('message', (message: ToStandIn) => {
  if (message.do === 'quit') {
    app.quit();
    return;
  }
  const handler = handlers.get(message.channel);
  const frame = { url: message.frameUrl };
  const event = {
    senderFrame: frame,
    sender: { mainFrame: frame },
  } as unknown as IpcMainInvokeEvent;
  void Promise.resolve(handler?.(event, message.name, message.args)).then((reply) =>
    tell({ what: 'reply', id: message.id, reply }),
  );
});

// A test that went away (failed, killed) takes the app with it, and the D-Bus session after it.
process.on('disconnect', () => process.exit(1));

// The app is ready on the next turn, as Electron's is after its module code ran.
setImmediate(ready);
