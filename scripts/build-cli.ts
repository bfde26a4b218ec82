/**
 * Bundles the `burrow` command into dist/cli/burrow.js (package.json's `bin`; `npm ci` runs
 * this as `prepare`), so that it starts with plain `node` instead of compiling TypeScript at
 * every run. Commands load what they need when they run (see cli/commands/index.ts), so
 * `burrow --help` reads no more than the declarations: `npm run bench:cli` measures it.
 */
import { chmod } from 'node:fs/promises';
import { bundleForNode, WORKER_ENTRIES } from './node-bundle.ts';

const CLI_DIR = 'dist/cli';

await bundleForNode({
  outDir: CLI_DIR,
  // cli/bin.ts's `#!` line is kept at the top.
  input: { burrow: 'cli/bin.ts', ...WORKER_ENTRIES },
});
await chmod(`${CLI_DIR}/burrow.js`, 0o755);
console.log(`built ${CLI_DIR}/burrow.js`);
