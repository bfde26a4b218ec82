/**
 * What the end-to-end and packaged-app tests start, built once per run (`npm run build:test`;
 * their projects' global setup runs it when a source is newer than the last build): the renderer
 * into dist/renderer, the main process into dist/electron, and the sandbox, agent and web CLIs
 * bundled into dist-test/, so that each spawned process starts with plain `node` instead of
 * compiling its TypeScript through tsx.
 *
 * The bundles sit one folder below the repository, flat, as the sources do: web/cli.ts finds
 * package.json and dist/renderer from its own URL, and core/ssh the key generation worker beside
 * the module that starts it.
 */
import { builtinModules } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'vite';
import { BUILT_STAMP, TEST_BIN_DIR, TEST_BINS } from '../tests/support/bins.ts';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};
const nodeModules = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

await build({ configFile: 'vite.config.ts', logLevel: 'warn' });
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir: TEST_BIN_DIR,
    emptyOutDir: true,
    ssr: true,
    target: 'node20',
    rollupOptions: {
      input: {
        ...TEST_BINS,
        'generator-thread': 'core/ssh/keys/generator-thread.ts',
        'open-thread': 'core/snapshot/open-thread.ts',
      },
      external: [...nodeModules, ...Object.keys(pkg.dependencies)],
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
// The main process as `npm run build` builds it: the boot and packaged-app tests start it.
await import('./build-electron.ts');
writeFileSync(BUILT_STAMP, `${new Date().toISOString()}\n`);
console.log(`built dist/renderer and ${TEST_BIN_DIR}/`);
