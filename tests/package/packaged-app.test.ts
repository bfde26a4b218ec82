/**
 * The app as a user gets it: the build (dist/, as `npm run build:test` leaves it) packaged by
 * electron-builder with electron-builder.yml for Linux's `dir` target, from a stand-in Electron
 * distribution (tests/support/electron-dist-stand-in.ts: the fuse sentinel, no Electron). Then
 * the package is read as it is: its binary's fuses, its asar's contents and size, and the app
 * booted from its extracted asar, in a folder outside the repository with only the package's own
 * node_modules, under the stand-in `electron` of the boot test (tests/e2e/electron/stand-in/).
 * What only Electron's real binary can show (the window drawn, asar integrity, the fuses in
 * effect) is left to a machine that has it (docs/desktop.md, "Packaging and installing").
 */
import { getRawHeader } from '@electron/asar';
// electron-builder's own loading and validation of electron-builder.yml, as packaging does it.
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { getCurrentFuseWire } from '@electron/fuses';
import type { Configuration } from 'electron-builder';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../core/ipc/sender.ts';
import { REQUIRED_FUSES } from '../../scripts/electron-security-scan.ts';
import { bareImports, unresolvedIn } from '../../scripts/package-imports.ts';
import {
  filesOf,
  isAbiStable,
  nativesPacked,
  packagesIn,
  sizeOf,
  unpackedNotNative,
  weightIn,
  type PackedFile,
} from '../../scripts/package-contents.ts';
import { packageDir, type PackagedApp } from '../../scripts/package-dir.ts';
import { fuseMismatches } from '../../scripts/package-fuses.ts';
import type { ProfilesState } from '../../shared/app/ipc/profiles.ts';
import { bootMain, is, stopMain, type Booted } from '../e2e/electron/stand-in/boot.ts';
import { writeElectronDistStandIn } from '../support/electron-dist-stand-in.ts';
import { extractAsar } from '../support/extract-asar.ts';

const root = path.resolve(import.meta.dirname, '../..');
const MiB = 1024 * 1024;
const BUDGET = 12 * MiB;
/** Never shipped: the renderer's compiler, the bundler, the test and type tools. */
const DEV_ONLY = ['svelte', 'vite', 'vitest', 'playwright', 'typescript', 'tsx', 'electron'];

// Outside the repository (os.tmpdir()), so that nothing resolves from its node_modules.
const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'burrow-package-')));
const appDir = path.join(work, 'app');
let packaged: PackagedApp;
let files: PackedFile[];

beforeAll(async () => {
  const started = performance.now();
  packaged = await packageDir({
    electronDist: writeElectronDistStandIn(path.join(work, 'electron-dist')),
    output: path.join(work, 'release'),
  });
  files = filesOf(getRawHeader(packaged.asar).header);
  extractAsar(packaged.asar, appDir);
  const unpacked = sizeOf(files.filter((f) => f.unpacked));
  console.log(
    `packaged in ${((performance.now() - started) / 1000).toFixed(1)} s: app.asar ` +
      `${((sizeOf(files) - unpacked) / MiB).toFixed(1)} MiB + unpacked ` +
      `${(unpacked / MiB).toFixed(1)} MiB = ${(sizeOf(files) / MiB).toFixed(1)} MiB ` +
      `(budget ${BUDGET / MiB} MiB)`,
  );
}, 240_000); // A backstop: packaging takes ~20 s alone, over a minute at a load of 17.

afterAll(() => rmSync(work, { recursive: true, force: true }));

it('flips the fuses electron-builder.yml asks for, and the ones Burrow requires', async () => {
  const asked = (await getConfig(root, null, null)).electronFuses ?? {};
  expect(Object.keys(asked).length).toBeGreaterThan(0);
  const wire = (await getCurrentFuseWire(packaged.binary)) as Record<number, number>;
  expect(fuseMismatches(asked as Record<string, boolean>, wire)).toEqual([]);
  // A fuse flipped back in electron-builder.yml is packaged as asked: the policy catches it.
  expect(fuseMismatches(REQUIRED_FUSES, wire)).toEqual([]);
});

it('holds production dependencies only, without what only weighs, within 12 MiB', () => {
  expect(packagesIn(files, DEV_ONLY)).toEqual([]);
  expect(weightIn(files)).toEqual([]);
  expect(sizeOf(files)).toBeLessThanOrEqual(BUDGET);
});

it('unpacks only native modules, each loadable by any Electron (ssh2 without its own)', () => {
  expect(nativesPacked(files)).toEqual([]);
  expect(unpackedNotNative(files)).toEqual([]);
  const natives = files.filter((f) => f.path.endsWith('.node')).map((f) => f.path);
  expect(natives).toEqual([expect.stringMatching(/^node_modules\/@napi-rs\/keyring-/)]);
  const unpackedDir = `${packaged.asar}.unpacked`;
  expect(natives.filter((n) => !isAbiStable(readFileSync(path.join(unpackedDir, n))))).toEqual([]);
  expect(packagesIn(files, ['ssh2'])).toEqual(['ssh2']);
  expect(packagesIn(files, ['cpu-features'])).toEqual([]);
});

it('holds every package the built main process, workers and preload import', () => {
  const built = path.join(appDir, 'dist/electron');
  const bundles = readdirSync(built, { recursive: true, encoding: 'utf8' }).filter((f) =>
    /\.c?js$/.test(f),
  );
  expect(bundles).toEqual(
    expect.arrayContaining(['main.js', 'generator-thread.js', 'preload.cjs']),
  );
  const imported = [
    ...new Set(bundles.flatMap((f) => bareImports(readFileSync(path.join(built, f), 'utf8')))),
  ];
  expect(imported).toEqual(expect.arrayContaining(['ssh2', '@napi-rs/keyring/keytar.js']));
  expect(unresolvedIn(appDir, built, imported)).toEqual([]);
  // What a dependency left among devDependencies looks like: it resolves nowhere.
  expect(unresolvedIn(appDir, built, ['svelte'])).toEqual([
    expect.stringMatching(/^svelte: error: ERR_MODULE_NOT_FOUND/),
  ]);
});

it('keeps the installers configured validly (mac, win, linux: checked, not built here)', async () => {
  const valid = await getConfig(root, null, null);
  const logger = new DebugLogger(false);
  await expect(validateConfiguration(valid, logger)).resolves.toBeUndefined();
  const misspelt = { ...valid, nsis: { ...valid.nsis, oneClik: false } } as Configuration;
  await expect(validateConfiguration(misspelt, logger)).rejects.toThrow(/configuration\.nsis/);
});

it('boots from the package: tray, window on app://, IPC, the Local sandbox, a key, quitting', async () => {
  const home = mkdtempSync(path.join(work, 'home-'));
  const app: Booted = bootMain({
    main: path.join(appDir, 'dist/electron/main.js'),
    appPath: appDir,
    home,
    env: { PATH: process.env['PATH'] ?? '' },
  });
  try {
    const icon = (await app.until(is('tray.icon'))).file;
    expect(icon).toBe(path.join(appDir, 'build/tray/burrow.png'));
    expect(existsSync(icon)).toBe(true);
    expect((await app.until(is('tray.menu'))).labels).toContain('Quit Burrow');
    const preload = (await app.until(is('window'))).webPreferences.preload ?? '';
    expect(preload).toBe(path.join(appDir, 'dist/electron/preload.cjs'));
    expect(existsSync(preload)).toBe(true);
    expect((await app.until(is('load'))).url).toBe(`${APP_ORIGIN}/index.html`);
    expect(await app.invoke('app.info')).toMatchObject({ ok: true, value: { name: 'Burrow' } });
    let local: ProfilesState['local'] | undefined;
    // Polled: the stand-in tells no event for the sandbox's start. A backstop of a minute.
    for (let tries = 0; local?.state !== 'running' && tries < 600; tries++) {
      if (tries) await new Promise((resolve) => setTimeout(resolve, 100));
      const reply = await app.invoke('profiles.state');
      local = reply.ok ? (reply.value as ProfilesState).local : undefined;
      expect(local?.state).not.toBe('failed');
    }
    expect(local?.state).toBe('running');
    // A key made by the generation worker inside the package, encrypted with bcrypt-pbkdf.
    const ca = await app.invoke('api.sshCertificateAuthorities.create', {
      body: { private_key_type: 'ed25519' },
    });
    if (!ca.ok) throw new Error(`creating a CA: ${ca.error.message}`);
    const made = await app.invoke('ssh.generate', {
      passphrase: 'packaged',
      target: { name: 'id_packaged' },
      certificate: {
        caId: (ca.value as { id: string }).id,
        principals: [os.userInfo().username],
        validity: { preset: '1h' },
      },
    });
    expect(made, JSON.stringify(made)).toMatchObject({ ok: true });
    expect(existsSync(path.join(home, '.ssh/id_packaged-cert.pub'))).toBe(true);
    // The keychain's native module, loaded by the Local sandbox profile's key, from beside the asar.
    expect(loadedNatives(app.child.pid ?? 0)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${packaged.asar}\\.unpacked/node_modules/@napi-rs/keyring-[^/]+/[^/]+\\.node$`,
        ),
      ),
    ]);
    app.child.send({ do: 'quit' });
    expect((await app.until(is('exit'))).code).toBe(0);
    await app.until(is('tray.destroyed'), 0);
  } finally {
    await stopMain(app);
  }
}, 180_000);

/** The native modules mapped by `pid`'s descendants (the app, under dbus-run-session and sh). */
function loadedNatives(pid: number): string[] {
  const children = (p: number): number[] =>
    readFileSync(`/proc/${p}/task/${p}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number)
      .flatMap((child) => [child, ...children(child)]);
  const mapped = children(pid).flatMap((p) =>
    readFileSync(`/proc/${p}/maps`, 'utf8')
      .split('\n')
      .map((line) => line.slice(line.indexOf('/')))
      .filter((file) => file.endsWith('.node')),
  );
  return [...new Set(mapped)];
}
