import path from 'node:path';
import type { Dispatcher } from 'undici';
import { downloadRelease } from './download.ts';
import { channelFile, readFeed } from './feed.ts';
import type { UpdateSource } from './service.ts';

/**
 * The feed read and the download checked by core itself (undici and node:crypto, by the rules of
 * core/app-updates/http.ts; the deadline is the update service's), not by
 * electron-updater: its HTTP goes through Electron's `net` module and its files through
 * Electron's `app`, so its checks cannot run, nor be tested, outside Electron. electron-updater
 * keeps the one step only it can do, installing on each platform (electron/updater.ts).
 */
export function feedSource(options: {
  readonly feedUrl: string;
  /** Downloads land here (the app's data folder). */
  readonly dir: string;
  readonly platform?: NodeJS.Platform;
  readonly arch?: string;
  /** How connections are made: the system's trust by default; tests trust their feed's own. */
  readonly dispatcher?: Dispatcher;
}): UpdateSource {
  const file = channelFile(options.platform ?? process.platform, options.arch ?? process.arch);
  return {
    latest: (signal) => readFeed(options.feedUrl, file, { signal, dispatcher: options.dispatcher }),
    download: (release, signal) =>
      downloadRelease(release, path.join(options.dir, 'pending'), {
        signal,
        dispatcher: options.dispatcher,
      }),
  };
}
