import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * Launch at login on Linux: an XDG autostart entry (~/.config/autostart/<app>.desktop), which
 * GNOME, KDE, Xfce and the other desktops that follow the spec start at login. macOS and Windows
 * have an OS API for this (app.setLoginItemSettings) that electron/main.ts uses instead.
 */

export const AUTOSTART_FILE = 'dev.burrow.app.desktop';

/** The .desktop entry; `--hidden` starts Burrow in the tray without a window. */
export function autostartEntry(execPath: string, appName: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    `Name=${appName}`,
    `Exec=${quoteExec(execPath)} --hidden`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** The autostart folder: $XDG_CONFIG_HOME/autostart, or ~/.config/autostart by the spec. */
export function autostartDir(env: NodeJS.ProcessEnv, home: string): string {
  const configHome = env.XDG_CONFIG_HOME;
  return path.join(
    configHome && path.isAbsolute(configHome) ? configHome : path.join(home, '.config'),
    'autostart',
  );
}

/** Writes the entry when enabled, removes it when not; nothing else in the folder is touched. */
export async function setLinuxAutostart(
  enabled: boolean,
  options: { dir: string; execPath: string; appName: string },
): Promise<void> {
  const file = path.join(options.dir, AUTOSTART_FILE);
  if (!enabled) return rm(file, { force: true });
  await mkdir(options.dir, { recursive: true });
  await writeFile(file, autostartEntry(options.execPath, options.appName), { mode: 0o644 });
}

// The Exec key's quoting rules: the path in double quotes, with ", `, $ and \ escaped. An
// AppImage path may hold spaces.
function quoteExec(value: string): string {
  return `"${value.replace(/["`$\\]/g, (c) => `\\${c}`)}"`;
}
