import { app, BrowserWindow } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Store from 'electron-store';
import { createBurrow, type Burrow } from '../core/app.ts';
import { osKeychain } from '../core/profiles/keychain.ts';
import { startEmbeddedSandbox } from '../sandbox/embedded.ts';
import { registerIpc } from './ipc.ts';
import { registerAppScheme, serveRenderer } from './protocol.ts';
import { createMainWindow } from './windows.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, 'preload.cjs');
const rendererDir = path.join(here, '..', 'renderer');

app.enableSandbox();
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus());
  let burrow: Burrow | undefined;
  void app.whenReady().then(async () => {
    serveRenderer(rendererDir);
    burrow = await createBurrow({
      version: app.getVersion(),
      shell: 'electron',
      dataDir: app.getPath('userData'),
      store: new Store<Record<string, unknown>>({ name: 'settings' }),
      secrets: await osKeychain(),
      startLocalSandbox: startEmbeddedSandbox,
    });
    registerIpc(burrow.implementation, burrow.events);
    createMainWindow(preloadPath);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow(preloadPath);
    });
  });
  // The embedded sandbox and its agents stop with the app; quitting waits for them once.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !burrow) return;
    closing = true;
    event.preventDefault();
    void burrow.close().finally(() => app.quit());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
