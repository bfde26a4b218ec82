import os from 'node:os';
import path from 'node:path';

/**
 * Where Burrow keeps its settings and the Local sandbox's data when Electron is not there to say
 * (browser mode): the folder Electron's `userData` would be for an app named Burrow.
 * `BURROW_DATA_DIR` overrides it.
 */
export function defaultDataDir(env = process.env, platform = process.platform): string {
  if (env['BURROW_DATA_DIR']) return path.resolve(env['BURROW_DATA_DIR']);
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Burrow');
  if (platform === 'win32')
    return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'Burrow');
  return path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), 'Burrow');
}
