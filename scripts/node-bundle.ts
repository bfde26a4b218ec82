/**
 * Bundling Node programs of this repository with Vite's SSR build: ESM, Node's modules and the
 * production dependencies left to node_modules (their native binaries cannot be bundled), and
 * the worker threads' entries beside the rest, as core/threads.ts looks for them there.
 */
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { build, type InlineConfig } from 'vite';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Imported from node_modules or Node itself at run time, never bundled. */
const EXTERNAL = [
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
  ...Object.keys(pkg.dependencies),
];

/** The worker threads core starts (core/ssh key generation, core/snapshot opening). */
export const WORKER_ENTRIES = {
  'generator-thread': 'core/ssh/keys/generator-thread.ts',
  'open-thread': 'core/snapshot/open/open-thread.ts',
} as const;

/**
 * Bundles `input` (name → source) flat into `outDir`, emptied first. `bundled` names production
 * dependencies bundled all the same (with what they import): one file read instead of dozens
 * resolved, and only the parts used.
 */
export async function bundleForNode(options: {
  readonly outDir: string;
  readonly input: Readonly<Record<string, string>>;
  readonly bundled?: readonly string[];
}): Promise<void> {
  const bundled = new Set(options.bundled);
  const left = EXTERNAL.filter((name) => !bundled.has(name));
  const config: InlineConfig = {
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir: options.outDir,
      emptyOutDir: true,
      ssr: true,
      target: 'node20',
      rollupOptions: {
        input: { ...options.input },
        external: (id) => left.some((name) => id === name || id.startsWith(`${name}/`)),
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          chunkFileNames: '[name]-[hash].js',
        },
      },
    },
    // Vite leaves every dependency to node_modules in an SSR build unless told.
    ...(bundled.size > 0 && { ssr: { noExternal: true } }),
  };
  await build(config);
}
