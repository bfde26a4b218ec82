/**
 * The packaged-app checks (tests/package/) on small made-up packages: each way a package can go
 * wrong is caught and said, so that the check on the real package cannot pass by seeing nothing.
 */
import type { FilesystemEntry } from '@electron/asar/lib/filesystem.js';
import { describe, expect, it } from 'vitest';
import * as contents from '../../../scripts/package-contents.ts';
import { bareImports } from '../../../scripts/package-imports.ts';
import { fuseMismatches } from '../../../scripts/package-fuses.ts';

const file = (size: number, unpacked = false) =>
  ({ size, unpacked, executable: false, offset: '0', integrity: {} }) as unknown as FilesystemEntry;
const dir = (files: Record<string, FilesystemEntry>): FilesystemEntry => ({ files });

const header = dir({
  dist: dir({ electron: dir({ 'main.js': file(100) }) }),
  node_modules: dir({
    '@napi-rs': dir({ 'keyring-linux-x64-gnu': dir({ 'keyring.node': file(50, true) }) }),
    ssh2: dir({
      'README.md': file(10),
      lib: dir({ 'index.js': file(20), 'crypto.node': file(30) }),
      node_modules: dir({ svelte: dir({ 'index.js': file(5) }) }),
    }),
    zod: dir({ 'index.d.cts': file(7), 'index.js': file(8), LICENSE: file(1, true) }),
  }),
  link: { link: 'dist' } as FilesystemEntry,
});
const files = contents.filesOf(header);

describe('what a package holds', () => {
  it('lists every file with its size and whether it was unpacked, links left out', () => {
    expect(files.map((f) => f.path)).toContain('node_modules/ssh2/lib/index.js');
    expect(files.find((f) => f.path.endsWith('keyring.node'))?.unpacked).toBe(true);
    expect(files.some((f) => f.path === 'link')).toBe(false);
    expect(contents.sizeOf(files)).toBe(231);
  });

  it('names a development-only package shipped, even nested in another', () => {
    expect(contents.packagesIn(files, ['svelte', 'vite'])).toEqual(['svelte']);
  });

  it('names sources, type definitions and docs that only weigh', () => {
    expect(contents.weightIn(files)).toEqual([
      'node_modules/ssh2/README.md',
      'node_modules/zod/index.d.cts',
    ]);
  });

  it('names a native module packed inside the archive, and anything else unpacked', () => {
    expect(contents.nativesPacked(files)).toEqual(['node_modules/ssh2/lib/crypto.node']);
    expect(contents.unpackedNotNative(files)).toEqual(['node_modules/zod/LICENSE']);
  });

  it('tells a Node-API module from one built for a single runtime ABI', () => {
    expect(contents.isAbiStable(Buffer.from('\0napi_register_module_v1\0'))).toBe(true);
    expect(contents.isAbiStable(Buffer.from('\0node_register_module_v115\0'))).toBe(false);
  });
});

describe('the fuses', () => {
  const ON = 0x31;
  const OFF = 0x30;
  const asked = { runAsNode: false, onlyLoadAppFromAsar: true };

  it('accepts a wire as asked', () => {
    expect(fuseMismatches(asked, { 0: OFF, 5: ON })).toEqual([]);
  });

  it('names a fuse flipped back, one missing, and one that does not exist', () => {
    expect(fuseMismatches({ ...asked, runAsNod: false }, { 0: ON })).toEqual([
      'runAsNode: asked off, is on',
      'onlyLoadAppFromAsar: asked on, is missing',
      'runAsNod: no such fuse',
    ]);
  });
});

it("finds the packages a vite bundle imports, whichever way, without Node's and Electron's", () => {
  const code = [
    'import { z } from "zod";',
    'import Store from "electron-store";',
    'import path from "node:path";',
    'import fs from "fs";',
    'import { app } from "electron";',
    'import { helper } from "./assets/key-blob.js";',
    'const keytar = await import("@napi-rs/keyring/keytar.js");',
    'const { ipcRenderer } = require("electron");',
    'const { pbkdf } = createRequire(import.meta.url)("bcrypt-pbkdf");',
  ].join('\n');
  expect(bareImports(code)).toEqual([
    '@napi-rs/keyring/keytar.js',
    'bcrypt-pbkdf',
    'electron-store',
    'zod',
  ]);
});
