import { app, BrowserWindow } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIpcHandlers } from '../core/ipc/handlers.ts';
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
  void app.whenReady().then(() => {
    serveRenderer(rendererDir);
    registerIpc(createIpcHandlers({ version: app.getVersion(), shell: 'electron' }));
    createMainWindow(preloadPath);
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createMainWindow(preloadPath);
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
