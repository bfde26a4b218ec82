import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const electronDir = path.dirname(require.resolve('electron/package.json'));

/**
 * The path of Electron's binary, or undefined where it is not installed. Electron 45 fetches
 * the binary on first launch; `download` tries that fetch (it fails fast with no network).
 */
export function findElectronBinary(options: { download: boolean }): string | undefined {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile) && options.download) {
    spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
      stdio: 'ignore',
      timeout: 120_000,
    });
  }
  if (!existsSync(pathFile)) return undefined;
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8'));
  return existsSync(binary) ? binary : undefined;
}
