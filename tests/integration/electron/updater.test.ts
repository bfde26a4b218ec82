import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import electronUpdater from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { feedSource } from '../../../core/updates/engine.ts';
import { UpdateService } from '../../../core/updates/service.ts';
import { platformInstaller, type PlatformUpdater } from '../../../electron/updater.ts';
import { startFeedServer, type FeedServer } from '../core/updates/feed-server.ts';

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

it('installs the checked AppImage only when Burrow quits, by electron-updater', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-install-'));
  await writeFile(
    path.join(dir, 'app-update.yml'),
    `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: burrow-updater\n`,
  );
  const running = path.join(dir, 'Burrow-1.4.0.AppImage');
  await writeFile(running, 'the running version');
  const marker = path.join(dir, 'ran');
  feed.publish(
    '1.5.0',
    Buffer.from(`#!/bin/sh\necho "$APPIMAGE_EXIT_AFTER_INSTALL" > '${marker}'\n`),
  );
  const quits: string[] = [];
  const updater = new electronUpdater.AppImageUpdater(null, standInApp(dir, quits));
  updater.logger = null;
  const { installer, quitting } = platformInstaller(updater as unknown as PlatformUpdater);
  const service = new UpdateService({
    current: '1.4.0',
    engine: {
      source: feedSource({ feedUrl: feed.url, dir, platform: 'linux', arch: 'x64' }),
      installer,
    },
    unavailable: '',
    settings: { get: () => ({ updates: { autoDownload: true } }) },
  });
  const appImage = process.env.APPIMAGE;
  process.env.APPIMAGE = running;
  try {
    await service.check();
    await new Promise<void>((resolve) => {
      const stop = service.subscribe((state) => state.phase === 'ready' && (stop(), resolve()));
    });
    // Ready, and nothing installed until Burrow quits.
    expect(await readFile(running, 'utf8')).toBe('the running version');
    quitting();
    expect(await readFile(marker, 'utf8')).toBe('true\n');
    const installed = path.join(dir, 'Burrow-1.5.0.AppImage');
    expect(await readFile(installed, 'utf8')).toMatch(/^#!\/bin\/sh/);
    expect(quits).toEqual([]);
  } finally {
    if (appImage === undefined) delete process.env.APPIMAGE;
    else process.env.APPIMAGE = appImage;
    service.close();
  }
});
