import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../../shared/app/ipc/updates.ts';
import type { DownloadedUpdate } from '../../../../core/app-updates/download.ts';
import { feedSource } from '../../../../core/app-updates/engine.ts';
import {
  CHECK_EVERY_MS,
  DOWNLOAD_DEADLINE_MS,
  FEED_DEADLINE_MS,
  RETRY_AFTER_MS,
  UpdateService,
} from '../../../../core/app-updates/service.ts';
import { FakeClock } from '../../../support/fake-clock.ts';
import {
  hold,
  latestYml,
  linuxSource,
  pour,
  sha512Of,
  startFeedServer,
  type FeedServer,
} from './feed-server.ts';

/*
 * The update decisions against a real feed over loopback HTTPS: what is offered, what is
 * downloaded and checked, what is said, when it is checked again. The installer is the one stand-in:
 * installing is electron-updater's platform step, which needs Electron.
 */

let feed: FeedServer;
beforeAll(async () => void (feed = await startFeedServer()));
afterAll(() => feed.close());
beforeEach(() => void feed.requests.splice(0));

const payload = randomBytes(256 * 1024);

async function updater(options: { current?: string; autoDownload?: boolean } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'burrow-updates-'));
  const clock = new FakeClock();
  const installed = { ready: [] as DownloadedUpdate[], now: 0 };
  const service = new UpdateService({
    current: options.current ?? '1.4.0',
    engine: {
      source: linuxSource(feed, dir),
      installer: {
        ready: (update) => void installed.ready.push(update),
        installNow: () => void (installed.now += 1),
      },
    },
    unavailable: 'never said here',
    settings: { get: () => ({ updates: { autoDownload: options.autoDownload ?? true } }) },
    clock,
  });
  const notices: string[] = [];
  service.onNotice((message) => notices.push(message));
  return { service, clock, installed, notices, dir };
}

/** Resolves with the first state (now or later) that `matches`. */
function until(service: UpdateService, matches: (state: UpdateState) => boolean) {
  return new Promise<UpdateState>((resolve) => {
    if (matches(service.state())) return resolve(service.state());
    const stop = service.onChange((state) => {
      if (!matches(state)) return;
      stop();
      resolve(state);
    });
  });
}

it('offers a newer version, downloads it, checks its sha512 and installs only on the click', async () => {
  feed.publish('1.5.0', payload);
  const { service, installed, notices } = await updater();
  service.start();
  const ready = await until(service, (s) => s.phase === 'ready');
  expect(ready).toMatchObject({
    offered: '1.5.0',
    message: 'Burrow 1.5.0 is ready: restart to update',
    lastCheck: { result: 'Burrow 1.5.0 is available', failed: false },
  });
  expect(installed.ready).toHaveLength(1);
  // Compared by hash: a deep comparison of the bytes themselves takes seconds.
  expect(sha512Of(await readFile(installed.ready[0]!.file))).toBe(sha512Of(payload));
  expect(notices).toEqual(['Burrow 1.5.0 is ready: restart to update']);
  // Checked again: still ready, no second download, no second notice, nothing installed.
  await service.check();
  expect(feed.requests.filter((r) => r.endsWith('.AppImage'))).toHaveLength(1);
  expect(notices).toHaveLength(1);
  // The feed rolled back meanwhile: the downloaded update stays ready, still named.
  feed.publish('1.4.0', payload);
  expect(await service.check()).toMatchObject({
    phase: 'ready',
    offered: '1.5.0',
    message: 'Burrow 1.5.0 is ready: restart to update',
  });
  expect(installed.now).toBe(0);
  service.install();
  expect(installed.now).toBe(1);
  service.close();
});

it('offers nothing for the same or an older version: never a downgrade', async () => {
  const { service, installed } = await updater({ current: '1.5.0' });
  for (const version of ['1.5.0', '1.4.9', '1.5.0-beta.3']) {
    feed.publish(version, payload);
    const state = await service.check();
    expect(state).toMatchObject({ phase: 'idle', offered: null });
    expect(state.lastCheck?.result).toBe('Burrow is up to date (1.5.0)');
  }
  expect(feed.requests.some((r) => r.endsWith('.AppImage'))).toBe(false);
  expect(installed.ready).toEqual([]);
  expect(() => service.install()).toThrow('No update is ready to install');
  service.close();
});

it('refuses a download whose sha512 is not the feed’s, says so and keeps nothing', async () => {
  feed.publish('1.5.0', payload, sha512Of(Buffer.from('another file')));
  const { service, installed, dir } = await updater();
  await service.check();
  const refused = await until(service, (s) => s.lastCheck?.failed === true);
  expect(refused).toMatchObject({
    phase: 'available',
    message: "The download of Burrow 1.5.0 was refused: its sha512 is not the feed's",
  });
  expect(installed.ready).toEqual([]);
  expect(await readdir(path.join(dir, 'pending'))).toEqual([]);
  expect(() => service.install()).toThrow('No update is ready to install');
  service.close();
});

it('takes up a download cut off midway later, and checks the feed at start and every 6 hours', async () => {
  feed.publish('1.5.0', payload);
  feed.dropNextDownload();
  const { service, clock, installed } = await updater();
  service.start();
  const cut = await until(service, (s) => s.lastCheck?.failed === true);
  expect(cut.message).toMatch(/^The download of Burrow 1\.5\.0 was interrupted/);
  expect(cut.nextCheckAt).toBe(new Date(RETRY_AFTER_MS).toISOString());
  await clock.advance(RETRY_AFTER_MS);
  await until(service, (s) => s.phase === 'ready');
  expect(installed.ready).toHaveLength(1);
  const feedReads = () => feed.requests.filter((r) => r === '/latest-linux.yml').length;
  expect(feedReads()).toBe(1);
  // The regular check, 6 hours after the last read of the feed.
  await clock.advance(CHECK_EVERY_MS - RETRY_AFTER_MS);
  await until(service, (s) => s.phase === 'ready' && feedReads() === 2);
  expect(service.state().nextCheckAt).toBe(new Date(2 * CHECK_EVERY_MS).toISOString());
  service.close();
});

it('waits for the person to download when downloading automatically is off', async () => {
  feed.publish('1.6.0', payload);
  const { service, installed } = await updater({ autoDownload: false });
  const offered = await service.check();
  expect(offered).toMatchObject({ phase: 'available', message: 'Burrow 1.6.0 is available' });
  expect(installed.ready).toEqual([]);
  await service.download();
  expect(service.state().phase).toBe('ready');
  service.close();
});

it('says why a check failed, and checks again sooner', async () => {
  const { service, clock } = await updater();
  const broken = new UpdateService({
    ...{ current: '1.4.0', unavailable: '', clock },
    engine: {
      source: feedSource({
        feedUrl: `${feed.url}nowhere/`,
        dispatcher: feed.dispatcher,
        dir: tmpdir(),
      }),
      installer: { ready: () => undefined, installNow: () => undefined },
    },
    settings: { get: () => ({ updates: { autoDownload: true } }) },
  });
  const state = await broken.check();
  expect(state.lastCheck).toMatchObject({ failed: true });
  expect(state.message).toMatch(/^Could not check for updates: The update feed answered 404/);
  expect(state.nextCheckAt).toBe(new Date(RETRY_AFTER_MS).toISOString());
  broken.close();
  service.close();
});

describe('what an update read refuses', () => {
  afterEach(() => {
    for (const file of ['latest-linux.yml', 'Burrow-1.5.0.AppImage']) {
      feed.handle(`/${file}`);
      feed.handle(`/channel/${file}`);
    }
  });

  const redirect = (location: string) => (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(302, { location });
    response.end();
  };

  /** A plain-http server on another loopback host, serving a newer feed and its file. */
  async function plainServer() {
    const requests: string[] = [];
    const server = createHttpServer((request, response) => {
      requests.push(request.url ?? '/');
      if (request.url === '/latest-linux.yml') response.end(latestYml('9.9.9', payload));
      else response.end(payload);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.2:${port}/`,
      requests,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it('follows a redirect on the feed’s own host, over https', async () => {
    feed.publish('1.5.0', payload);
    feed.handle('/latest-linux.yml', redirect('/channel/latest-linux.yml'));
    feed.handle('/channel/latest-linux.yml', (_, response) =>
      response.end(latestYml('1.5.0', payload)),
    );
    feed.handle('/Burrow-1.5.0.AppImage', redirect(`${feed.url}channel/Burrow-1.5.0.AppImage`));
    feed.handle('/channel/Burrow-1.5.0.AppImage', (_, response) => response.end(payload));
    const { service, installed } = await updater();
    await service.check();
    expect(await until(service, (s) => s.phase === 'ready')).toMatchObject({ offered: '1.5.0' });
    expect(sha512Of(await readFile(installed.ready[0]!.file))).toBe(sha512Of(payload));
    expect(feed.requests).toEqual([
      '/latest-linux.yml',
      '/channel/latest-linux.yml',
      '/Burrow-1.5.0.AppImage',
      '/channel/Burrow-1.5.0.AppImage',
    ]);
    service.close();
  });

  it('never follows the feed to plain http, nor to another host', async () => {
    const plain = await plainServer();
    const other = `https://localhost:${new URL(feed.url).port}/latest-linux.yml`;
    const cases: [string, RegExp][] = [
      [
        `${plain.url}latest-linux.yml`,
        /^Could not check for updates: The update feed redirects to http:\/\/127\.0\.0\.2:\d+\/latest-linux\.yml: not followed, updates come over https only$/,
      ],
      [
        other,
        /^Could not check for updates: The update feed redirects to another host \(localhost:\d+\): not followed, updates come from 127\.0\.0\.1:\d+ only$/,
      ],
    ];
    for (const [location, message] of cases) {
      feed.requests.splice(0);
      feed.handle('/latest-linux.yml', redirect(location));
      const { service } = await updater();
      const state = await service.check();
      expect(state).toMatchObject({ phase: 'idle', offered: null, lastCheck: { failed: true } });
      expect(state.message).toMatch(message);
      expect(state.nextCheckAt).toBe(new Date(RETRY_AFTER_MS).toISOString());
      expect(feed.requests).toEqual(['/latest-linux.yml']);
      service.close();
    }
    expect(plain.requests).toEqual([]);
    await plain.close();
  });

  it('never follows a download to plain http: refused, not fetched again before the next check', async () => {
    const plain = await plainServer();
    feed.publish('1.5.0', payload);
    feed.handle('/Burrow-1.5.0.AppImage', redirect(`${plain.url}Burrow-1.5.0.AppImage`));
    const { service, installed, dir } = await updater();
    await service.check();
    const refused = await until(service, (s) => s.lastCheck?.failed === true);
    expect(refused.message).toMatch(
      /^The download of Burrow 1\.5\.0 redirects to http:\/\/127\.0\.0\.2:\d+\/Burrow-1\.5\.0\.AppImage: not followed, updates come over https only$/,
    );
    expect(refused).toMatchObject({
      phase: 'available',
      nextCheckAt: new Date(CHECK_EVERY_MS).toISOString(),
    });
    expect(plain.requests).toEqual([]);
    expect(installed.ready).toEqual([]);
    expect(await readdir(path.join(dir, 'pending'))).toEqual([]);
    service.close();
    await plain.close();
  });

  it('reads at most 1 MiB of a feed, and hangs up on the rest', async () => {
    const head = Buffer.from(latestYml('9.9.9', payload));
    for (const declared of [false, true]) {
      let finished: Promise<boolean> | undefined;
      feed.handle('/latest-linux.yml', (_, response) => {
        if (declared) response.setHeader('content-length', 96 * 1024 * 1024);
        finished = pour(response, head, 96 * 1024 * 1024);
      });
      const { service } = await updater();
      const state = await service.check();
      expect(state).toMatchObject({ phase: 'idle', offered: null, lastCheck: { failed: true } });
      expect(state.message).toBe(
        'Could not check for updates: The update feed sends more than 1 MiB for latest-linux.yml: not read further',
      );
      expect(await finished).toBe(false);
      service.close();
    }
  });

  it('stops a download at the size the feed declared: refused, and nothing kept', async () => {
    const declared = payload.subarray(0, 1024);
    feed.publish('1.5.0', declared);
    let finished: Promise<boolean> | undefined;
    feed.handle('/Burrow-1.5.0.AppImage', (_, response) => {
      finished = pour(response, declared, 96 * 1024 * 1024);
    });
    const { service, installed, dir } = await updater();
    await service.check();
    const refused = await until(service, (s) => s.lastCheck?.failed === true);
    expect(refused.message).toBe(
      'The download of Burrow 1.5.0 sends more than the 1024 bytes the feed declared: refused',
    );
    expect(refused.nextCheckAt).toBe(new Date(CHECK_EVERY_MS).toISOString());
    expect(await finished).toBe(false);
    expect(installed.ready).toEqual([]);
    expect(await readdir(path.join(dir, 'pending'))).toEqual([]);
    service.close();
  });

  it('fails a check whose feed is too slow at its deadline, then checks go on as after any failure', async () => {
    feed.publish('1.5.0', payload);
    let hungUp: Promise<void> | undefined;
    feed.handle('/latest-linux.yml', (_, response) => {
      hungUp = hold(response, Buffer.from('version: 1.5.0\n'));
    });
    const { service, clock } = await updater({ autoDownload: false });
    const checking = service.check();
    await expect.poll(() => hungUp !== undefined).toBe(true);
    expect(service.state().phase).toBe('checking');
    await clock.advance(FEED_DEADLINE_MS);
    const failed = await checking;
    expect(failed).toMatchObject({
      phase: 'idle',
      message: 'Could not check for updates: The update feed did not answer within 1 minute',
      lastCheck: { failed: true },
      nextCheckAt: new Date(FEED_DEADLINE_MS + RETRY_AFTER_MS).toISOString(),
    });
    await hungUp;
    // "Check now" works again at once.
    feed.handle('/latest-linux.yml');
    expect(await service.check()).toMatchObject({ phase: 'available', offered: '1.5.0' });
    service.close();
  });

  it('cuts a download too slow to finish at its deadline, and takes it up later', async () => {
    feed.publish('1.5.0', payload);
    let hungUp: Promise<void> | undefined;
    feed.handle('/Burrow-1.5.0.AppImage', (_, response) => {
      response.setHeader('content-length', payload.length);
      hungUp = hold(response, payload.subarray(0, 1024));
    });
    const { service, clock, dir } = await updater();
    await service.check();
    await expect.poll(() => hungUp !== undefined).toBe(true);
    expect(service.state().phase).toBe('downloading');
    await clock.advance(DOWNLOAD_DEADLINE_MS);
    const cut = await until(service, (s) => s.lastCheck?.failed === true);
    expect(cut).toMatchObject({
      phase: 'available',
      message: 'The download of Burrow 1.5.0 was interrupted: it did not finish within 1 hour',
      nextCheckAt: new Date(DOWNLOAD_DEADLINE_MS + RETRY_AFTER_MS).toISOString(),
    });
    await hungUp;
    // The partial file goes as the aborted read unwinds, just after the service said so.
    await expect.poll(() => readdir(path.join(dir, 'pending'))).toEqual([]);
    feed.handle('/Burrow-1.5.0.AppImage');
    await clock.advance(RETRY_AFTER_MS);
    await until(service, (s) => s.phase === 'ready');
    service.close();
  });
});
