/**
 * The Node bundles (scripts/node-bundle.ts) take in every production dependency but the ones they
 * leave to node_modules: a native one bundled would build, then fail where it is first loaded.
 * Read from what `npm ci` installed, so that a native dependency added later is caught here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { LEFT_IN_NODE_MODULES } from '../../../scripts/node-bundle.ts';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};
const dependencies = Object.keys(pkg.dependencies);

/** Whether `dir` holds a compiled addon or the recipe for one. */
function holdsNativeCode(dir: string): boolean {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some(
    (file) => file.endsWith('.node') || path.basename(file) === 'binding.gyp',
  );
}

/** A native package: its own addon, or a prebuilt one per platform beside it (napi-rs's way). */
function isNative(name: string): boolean {
  const dir = path.join('node_modules', name);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  const perPlatform = Object.keys(manifest.optionalDependencies ?? {}).some((optional) =>
    optional.startsWith(`${name}-`),
  );
  return perPlatform || holdsNativeCode(dir);
}

it('leaves every native production dependency to node_modules', () => {
  const native = dependencies.filter(isNative);
  expect(native).toEqual(expect.arrayContaining(['@napi-rs/keyring', 'ssh2']));
  expect(native.filter((name) => !LEFT_IN_NODE_MODULES.includes(name))).toEqual([]);
});

it('names only production dependencies as left to node_modules', () => {
  expect(LEFT_IN_NODE_MODULES.filter((name) => !dependencies.includes(name))).toEqual([]);
});
