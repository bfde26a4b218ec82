/**
 * `npm run dist`: builds and packages Burrow with electron-builder (extra arguments go to it, e.g.
 * `-- --linux AppImage`). electron-builder fetches Electron's binary from the same host `npm
 * start` does; where that cannot be reached, say so in one line instead of a download trace.
 */
import { spawnSync } from 'node:child_process';
import { findElectronBinary } from './electron-binary.ts';

if (!findElectronBinary({ download: true })) {
  console.error(
    "Burrow: cannot package here: Electron's binary cannot be downloaded (no access to its release host); run `npm run dist` where it can.",
  );
  process.exit(1);
}
const run = (command: string, args: string[]) =>
  spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;
const status =
  run('npm', ['run', 'build']) || run('npx', ['electron-builder', ...process.argv.slice(2)]);
process.exit(status);
