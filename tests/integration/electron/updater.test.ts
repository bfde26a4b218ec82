import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import electronUpdater from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { UpdateService } from '../../../core/app-updates/service.ts';
import { platformInstaller, type PlatformUpdater } from '../../../electron/updater.ts';
import { linuxSource, startFeedServer, type FeedServer } from '../core/app-updates/feed-server.ts';

/*
 * The install step, electron-updater's own AppImage updater without Electron: a stand-in for
 * Electron's `app` (electron-updater takes one: AppAdapter), core's checked download handed over,
 * and the new AppImage (here a shell script) moved into place and run, as electron-updater does.
 */

let feed: FeedServer;
beforeAll(async () => void (feed = await startFeedServer()));
afterAll(() => feed.close());

function standInApp(dir: string, quits: string[]): AppAdapter {
  return {
    version: '1.4.0',
    name: 'Burrow',
    isPackaged: true,
    appUpdateConfigPath: path.join(dir, 'app-update.yml'),
    userDataPath: dir,
    baseCachePath: path.join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => void quits.push('relaunch'),
    quit: () => void quits.push('quit'),
    onQuit: () => undefined,
  };
}

/** A ready update (a script standing in for the new AppImage), not installed yet. */
async function readyUpdate() {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-install-'));
  await writeFile(
    path.join(dir, 'app-update.yml'),
    `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: burrow-updater\n`,
  );
  const running = path.join(dir, 'Burrow-1.4.0.AppImage');
  await writeFile(running, 'the running version');
  const marker = path.join(dir, 'ran');
  // What the new version was started with: silent, and whether it exits after installing.
  const script = `#!/bin/sh\necho "$APPIMAGE_SILENT_INSTALL $APPIMAGE_EXIT_AFTER_INSTALL" > '${marker}'\n`;
  feed.publish('1.5.0', Buffer.from(script));
  const quits: string[] = [];
  const updater = new electronUpdater.AppImageUpdater(null, standInApp(dir, quits));
  updater.logger = null;
  const { installer, quitting } = platformInstaller(updater as unknown as PlatformUpdater, () =>
    quits.push('Burrow quits'),
  );
  const service = new UpdateService({
    current: '1.4.0',
    engine: {
      source: linuxSource(feed, dir),
      installer,
    },
    unavailable: '',
    settings: { get: () => ({ updates: { autoDownload: true } }) },
  });
  await service.check();
  await new Promise<void>((resolve) => {
    const stop = service.onChange((state) => state.phase === 'ready' && (stop(), resolve()));
  });
  service.close();
  expect(await readFile(running, 'utf8')).toBe('the running version');
  const installed = path.join(dir, 'Burrow-1.5.0.AppImage');
  return { service, quitting, quits, running, marker, installed };
}

let appImage: string | undefined;
beforeEach(() => void (appImage = process.env.APPIMAGE));
afterEach(() => {
  if (appImage === undefined) delete process.env.APPIMAGE;
  else process.env.APPIMAGE = appImage;
});

it('installs the checked AppImage when Burrow quits, by electron-updater', async () => {
  const update = await readyUpdate();
  process.env.APPIMAGE = update.running;
  update.quitting();
  // Moved into place and run to finish installing, not to stay open.
  expect(await readFile(update.marker, 'utf8')).toBe('true true\n');
  expect(await readFile(update.installed, 'utf8')).toMatch(/^#!\/bin\/sh/);
  expect(update.quits).toEqual([]);
});

it('on the click, quits first, then installs and starts the new version', async () => {
  const update = await readyUpdate();
  process.env.APPIMAGE = update.running;
  update.service.install();
  expect(update.quits).toEqual(['Burrow quits']);
  await expect(readFile(update.installed, 'utf8')).rejects.toThrow('ENOENT');
  // main.ts, once Burrow closed:
  update.quitting();
  await expect.poll(() => readFile(update.marker, 'utf8').catch(() => '')).toBe('true \n');
});
