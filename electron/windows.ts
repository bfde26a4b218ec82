import { BrowserWindow, screen, shell } from 'electron';
import { APP_ORIGIN, isAllowedNavigation, isExternalLink } from '../core/ipc/sender.ts';
import type { KeyValueStore } from '../core/store.ts';
import { MIN_WINDOW_SIZE, placeWindow, readBounds, WINDOW_BOUNDS_KEY } from './window-state.ts';

/**
 * The one main window, created on demand and destroyed when closed, so that a tray-only Burrow
 * holds no renderer. `open` shows it (creating it if need be) at a hash route.
 */
export class MainWindow {
  private window: BrowserWindow | undefined;

  constructor(
    private readonly preloadPath: string,
    private readonly store: KeyValueStore,
    private readonly onOpenChange: (open: boolean) => void,
  ) {}

  current(): BrowserWindow | undefined {
    return this.window;
  }

  open(route = ''): void {
    const url = `${APP_ORIGIN}/index.html${route}`;
    if (this.window) {
      if (route) void this.window.loadURL(url);
      if (this.window.isMinimized()) this.window.restore();
      this.window.show();
      this.window.focus();
      return;
    }
    const window = createWindow(this.preloadPath, this.store);
    this.window = window;
    this.onOpenChange(true);
    window.on('close', () => this.store.set(WINDOW_BOUNDS_KEY, window.getNormalBounds()));
    window.on('closed', () => {
      this.window = undefined;
      this.onOpenChange(false);
    });
    void window.loadURL(url);
  }
}

/** The security settings every window gets; none of them is ever relaxed. */
function createWindow(preloadPath: string, store: KeyValueStore): BrowserWindow {
  const workAreas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea);
  const window = new BrowserWindow({
    ...placeWindow(readBounds(store.get(WINDOW_BOUNDS_KEY)), workAreas),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'Burrow',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  lockDown(window);
  window.once('ready-to-show', () => window.show());
  return window;
}

function lockDown(window: BrowserWindow): void {
  const contents = window.webContents;
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, contents.getURL())) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Links to the outside open in the user's browser, never in an app window; https only.
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
