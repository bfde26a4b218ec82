/**
 * Bundling Node programs of this repository with Vite's SSR build: ESM, with the production
 * dependencies written in JavaScript bundled in (one file read at start instead of dozens
 * resolved, and only the parts used: a spawned agent starts in half the CPU), and Node's modules
 * and the dependencies below left to node_modules. The worker threads' entries sit beside the
 * rest, as core/threads.ts looks for them there.
 */
import { builtinModules } from 'node:module';
import { build } from 'vite';

/**
 * Production dependencies imported from node_modules at run time: native binaries cannot be
 * bundled (the keychain's; ssh2 loads its optional native crypto from beside its own files),
 * and Electron's own stores and updater run only in the main process, built elsewhere.
 */
export const LEFT_IN_NODE_MODULES = [
  '@napi-rs/keyring',
  'ssh2',
  'electron-store',
  'electron-updater',
];

const EXTERNAL = [
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
  ...LEFT_IN_NODE_MODULES,
];

/** The worker threads core starts (core/ssh key generation, core/snapshot opening). */
export const WORKER_ENTRIES = {
  'generator-thread': 'core/ssh/keys/generator-thread.ts',
  'open-thread': 'core/snapshot/open/open-thread.ts',
} as const;

/** Bundles `input` (name → source) flat into `outDir`, emptied first. */
export async function bundleForNode(options: {
  readonly outDir: string;
  readonly input: Readonly<Record<string, string>>;
}): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: options.outDir,
      emptyOutDir: true,
      ssr: true,
      target: 'node20',
      rollupOptions: {
        input: { ...options.input },
        external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          chunkFileNames: '[name]-[hash].js',
        },
      },
    },
    // Vite leaves every dependency to node_modules in an SSR build unless told.
    ssr: { noExternal: true },
  });
}
