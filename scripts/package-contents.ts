/**
 * What a packaged app holds, read from its asar header, and the ways it can be wrong: a
 * development-only package shipped, files that only weigh, a native module packed inside the
 * archive (Electron cannot load it from there) or unpacked beside its whole package, a native
 * module built for one runtime's ABI. Pure: the header and the natives' bytes come in.
 */
import type { FilesystemEntry } from '@electron/asar/lib/filesystem.js';

export type PackedFile = { path: string; size: number; unpacked: boolean };

/** Every file in an asar header, with its path inside the archive ('dist/electron/main.js'). */
export function filesOf(entry: FilesystemEntry, prefix = ''): PackedFile[] {
  if ('files' in entry) {
    return Object.entries(entry.files).flatMap(([name, child]) =>
      filesOf(child, prefix ? `${prefix}/${name}` : name),
    );
  }
  if ('link' in entry) return [];
  return [{ path: prefix, size: entry.size, unpacked: entry.unpacked === true }];
}

/** The package a file belongs to: the name after its last node_modules/, if any. */
function packageOf(file: string): string | undefined {
  const parts = `/${file}`.split('/node_modules/');
  if (parts.length < 2) return undefined;
  return /^(?:@[^/]+\/)?[^/]+/.exec(parts.at(-1) ?? '')?.[0];
}

/** The packages of `forbidden` that the package holds. */
export function packagesIn(files: readonly PackedFile[], forbidden: Iterable<string>): string[] {
  const held = new Set(files.map((f) => packageOf(f.path)));
  return [...forbidden].filter((name) => held.has(name)).sort();
}

/** Sources, docs, source maps and C/C++ build inputs: nothing the app runs. */
const WEIGHT = /\.(?:[cm]?ts|md|markdown|map|c|cc|cpp|h|hpp|gyp|gypi)$/i;

export function weightIn(files: readonly PackedFile[]): string[] {
  return files.filter((f) => WEIGHT.test(f.path)).map((f) => f.path);
}

const isNative = (file: string) => file.endsWith('.node');

/** Native modules inside the archive, which Electron's loader cannot open. */
export function nativesPacked(files: readonly PackedFile[]): string[] {
  return files.filter((f) => isNative(f.path) && !f.unpacked).map((f) => f.path);
}

/** Files unpacked beside the archive that are not native modules: outside its integrity check. */
export function unpackedNotNative(files: readonly PackedFile[]): string[] {
  return files.filter((f) => f.unpacked && !isNative(f.path)).map((f) => f.path);
}

/**
 * Whether a native module loads in any Node or Electron: Node-API modules are ABI-stable and
 * export `napi_register_module_v1`; any other was built for one runtime's ABI (ssh2's and
 * cpu-features' are built for the Node that ran `npm ci`, which Electron's is not).
 */
export function isAbiStable(bytes: Buffer): boolean {
  return bytes.includes('napi_register_module_v1');
}

export const sizeOf = (files: readonly PackedFile[]) => files.reduce((sum, f) => sum + f.size, 0);
