/**
 * What the end-to-end and packaged-app tests start, built once per run (`npm run build:test`;
 * their projects' global setup runs it when a source is newer than the last build): the renderer
 * into dist/renderer, the main process into dist/electron, and the sandbox, agent and web CLIs
 * and the tests' one-job children (tests/support/children/) bundled into dist-test/, so that each
 * spawned process starts with plain `node` instead of compiling its TypeScript through tsx.
 *
 * The bundles sit one folder below the repository, flat, as the sources do: web/cli.ts finds
 * package.json and dist/renderer from its own URL, and core/ssh the key generation worker beside
 * the module that starts it.
 */
import { writeFileSync } from 'node:fs';
import { build } from 'vite';
import { BUILT_STAMP, TEST_BIN_DIR, TEST_BINS } from '../tests/support/bins.ts';
import { bundleForNode, WORKER_ENTRIES } from './node-bundle.ts';

await build({ configFile: 'vite.config.ts', logLevel: 'warn' });
await bundleForNode({
  outDir: TEST_BIN_DIR,
  input: { ...TEST_BINS, ...WORKER_ENTRIES },
});
// The main process as `npm run build` builds it: the boot and packaged-app tests start it.
await import('./build-electron.ts');
writeFileSync(BUILT_STAMP, `${new Date().toISOString()}\n`);
console.log(`built dist/renderer and ${TEST_BIN_DIR}/`);
