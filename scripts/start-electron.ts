/**
 * `npm start`: launches the built app in Electron. Where Electron's binary cannot be had (no
 * network to its host), say so in one line and point to browser mode, instead of a screenful
 * of download stack traces.
 */
import { spawn } from 'node:child_process';
import { findElectronBinary } from './electron-binary.ts';

const binary = findElectronBinary({ download: true });
if (!binary) {
  console.error(
    "Burrow: Electron's binary is not installed and could not be downloaded here; run `npm run web` to use Burrow in your browser instead.",
  );
  process.exit(1);
}
const child = spawn(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
