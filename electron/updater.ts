import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppUpdatesOptions } from '../core/app-updates/app.ts';
import type { DownloadedUpdate } from '../core/app-updates/download.ts';
import { feedSource } from '../core/app-updates/engine.ts';
import { feedUrlOf } from '../core/app-updates/feed.ts';
import type { UpdateInstaller } from '../core/app-updates/service.ts';

/*
 * The one step of an update only electron-updater does: installing on the platform (replacing
 * the AppImage, running the NSIS installer). Core reads the feed, downloads and checks the file
 * (core/app-updates/engine.ts says why there); this hands the checked file to electron-updater as
 * its own finished download, and installs on the person's click or when Burrow quits.
 */

/** electron-updater's updater, with the internal download helper this adapter fills. */
export type PlatformUpdater = {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  install(isSilent: boolean, isForceRunAfter: boolean): boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
  getOrCreateDownloadHelper(): Promise<{
    setDownloadedFile(
      file: string,
      packageFile: null,
      versionInfo: { version: string; files: unknown[]; path: string; sha512: string },
      fileInfo: { url: URL; info: { url: string; sha512: string; size?: number } },
      fileName: string,
      isSaveCache: boolean,
    ): Promise<void>;
  }>;
};

export type ElectronUpdates = {
  /** For core: the engine, or why there is none (undefined: from the sources, core says so). */
  readonly updates: AppUpdatesOptions | undefined;
  /** Burrow is quitting: a ready update installs now (the person's consent is quitting). */
  quitting(): void;
};

const none = (unavailable?: string): ElectronUpdates => ({
  updates: unavailable === undefined ? undefined : { engine: null, unavailable },
  quitting: () => undefined,
});

/** Hands a checked download to electron-updater as if it had downloaded it itself. */
async function handOver(updater: PlatformUpdater, update: DownloadedUpdate): Promise<void> {
  const { version, url, fileName, sha512, size } = update;
  const info = { url: fileName, sha512, ...(size !== null && { size }) };
  // The new AppImage is run to finish installing: electron-updater's own download marks it so.
  if (fileName.endsWith('.AppImage')) await chmod(update.file, 0o755);
  const helper = await updater.getOrCreateDownloadHelper();
  await helper.setDownloadedFile(
    update.file,
    null,
    { version, files: [info], path: fileName, sha512 },
    { url: new URL(url), info },
    fileName,
    false,
  );
}

/**
 * Updates for the packaged app: the feed named by the `app-update.yml` electron-builder wrote
 * (electron-builder.yml's `publish`), electron-updater's platform updater for the install. From
 * the sources, or on macOS (whose Squirrel installer downloads for itself), there are none.
 */
export async function electronUpdates(options: {
  readonly isPackaged: boolean;
  readonly resourcesPath: string;
  readonly dataDir: string;
  readonly notify: (message: string) => void;
  /** Burrow's own quit (asking first while a rolling update runs). */
  readonly quit: () => void;
}): Promise<ElectronUpdates> {
  if (!options.isPackaged) return none();
  let feedUrl: string;
  try {
    feedUrl = feedUrlOf(await readFile(path.join(options.resourcesPath, 'app-update.yml'), 'utf8'));
  } catch (error) {
    return none(`This build names no update feed: ${messageOf(error)}`);
  }
  let updater: PlatformUpdater;
  try {
    // Loaded only in a packaged app: from the sources it would only slow the start.
    const { default: electronUpdater } = await import('electron-updater');
    const { autoUpdater, AppImageUpdater, NsisUpdater } = electronUpdater;
    // Only these install the one file core downloads; macOS's Squirrel fetches its own.
    if (!(autoUpdater instanceof AppImageUpdater || autoUpdater instanceof NsisUpdater))
      return none(
        'Updates install themselves from the AppImage and the Windows installer: get new versions of this one from the releases',
      );
    updater = autoUpdater as unknown as PlatformUpdater;
  } catch (error) {
    // Updates are never a reason for Burrow not to start.
    return none(`The updater did not start: ${messageOf(error)}`);
  }
  const { installer, quitting } = platformInstaller(updater, options.quit);
  return {
    updates: {
      engine: { source: feedSource({ feedUrl, dir: options.dataDir }), installer },
      notify: options.notify,
    },
    quitting,
  };
}

/**
 * The installer core drives: a checked download handed over when ready, installed when Burrow
 * quits, and on the click the same with the new version started after. Installing comes after
 * Burrow closed, not before (electron-updater's `quitAndInstall`): a new version started while
 * this one still closes would find it holding the single-instance lock, and exit.
 */
export function platformInstaller(
  updater: PlatformUpdater,
  quit: () => void,
): { installer: UpdateInstaller; quitting(): void } {
  // Core decides what to download and when; electron-updater only installs.
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.allowDowngrade = false;
  // Without a listener, electron-updater's failed install would throw out of the quit.
  updater.on('error', (error) => console.error('Burrow: the update did not install:', error));
  let ready = false;
  let restart = false;
  return {
    installer: {
      ready: async (update) => {
        await handOver(updater, update);
        ready = true;
      },
      installNow: () => {
        restart = true;
        quit();
      },
    },
    // electron-updater's own install on quit listens for Electron's `quit`, which Burrow's
    // `app.exit` after closing skips; main.ts calls this once closed instead.
    quitting: () => void (ready && updater.install(true, restart)),
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
