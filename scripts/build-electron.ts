/**
 * Bundles the Electron main process (ESM, dependencies left to node_modules), the key generation
 * worker beside it, and the preload (one CommonJS file: a sandboxed preload cannot load modules
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

await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: true,
    ssr: 'electron/main.ts',
    target: 'node22',
    rollupOptions: {
      external: ['electron', ...nodeModules, ...Object.keys(pkg.dependencies)],
      output: { format: 'es', entryFileNames: 'main.js' },
    },
  },
});

// core/ssh generates keys in a worker thread, whose entry must sit beside main.js.
await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: false,
    ssr: 'core/ssh/keygen-worker.ts',
    target: 'node22',
    rollupOptions: {
      external: [...nodeModules, ...Object.keys(pkg.dependencies)],
      output: { format: 'es', entryFileNames: 'keygen-worker.js' },
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
console.log(`built ${outDir}/main.js, keygen-worker.js and preload.cjs`);
