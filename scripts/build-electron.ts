/**
 * Bundles the Electron main process (ESM, dependencies left to node_modules), the key generation
 * and snapshot opening workers beside it, and the preload (one CommonJS file: a sandboxed preload cannot load modules
 * of its own).
 */
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { build } from 'vite';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};
const nodeModules = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
const outDir = 'dist/electron';

// core/ssh generates keys and core/snapshot opens large files in worker threads, whose entries
// must sit beside main.js.
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: true,
    ssr: true,
    target: 'node22',
    rollupOptions: {
      input: {
        main: 'electron/main.ts',
        'generator-thread': 'core/ssh/keys/generator-thread.ts',
        'open-thread': 'core/snapshot/open/open-thread.ts',
      },
      external: ['electron', ...nodeModules, ...Object.keys(pkg.dependencies)],
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});

await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: false,
    ssr: 'electron/preload.ts',
    ssrEmitAssets: false,
    target: 'node22',
    rollupOptions: {
      external: ['electron'],
      output: { format: 'cjs', entryFileNames: 'preload.cjs' },
    },
  },
  ssr: { noExternal: true },
});
console.log(`built ${outDir}/main.js, generator-thread.js, open-thread.js and preload.cjs`);
