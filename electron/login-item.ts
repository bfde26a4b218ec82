import type { App } from 'electron';
import os from 'node:os';
import { autostartDir, setLinuxAutostart } from './autostart.ts';

export type LoginItemApp = Pick<App, 'setLoginItemSettings' | 'getName'>;

/**
 * Applies the "launch at login" setting: the OS's own login items on macOS and Windows, an XDG
 * autostart entry on Linux (Electron has no API there). On Linux the entry starts the binary the
 * person runs (the AppImage's own path when it is one, which $APPIMAGE names).
 */
export async function applyLaunchAtLogin(
  enabled: boolean,
  app: LoginItemApp,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (platform === 'darwin' || platform === 'win32') {
    app.setLoginItemSettings({ openAtLogin: enabled, args: ['--hidden'] });
    return;
  }
  await setLinuxAutostart(enabled, {
    dir: autostartDir(env, os.homedir()),
    execPath: env.APPIMAGE ?? process.execPath,
    appName: app.getName(),
  });
}
