import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerProof } from '../../../../shared/api/catalog/owner-proof.ts';
import type { Clock } from '../../../../shared/node/clock.ts';
import { RECORD_FILE } from '../../../../core/profiles/local-sandbox-record.ts';
import { ProfileService } from '../../../../core/profiles/profiles.ts';
import { openConfStore } from '../../../../core/store.ts';
import { startEmbeddedSandbox } from '../../../../sandbox/embedded.ts';
import { noSecretService } from '../../../support/secret-service.ts';
import { steppedClock } from '../../../support/stepped-clock.ts';
import { testKeychain, writeProfiles } from './support.ts';
import { cleanupAfterAll } from '../../../support/cleanup.ts';

/*
 * The Local sandbox has one owner at a time (the process holding its data file, recorded in
 * running.json with a secret it proves): starters racing, an owner quitting, a leftover record
 * pointing at something else, a record file that is no file. Real sandboxes over loopback; the
 * starters' waits on a clock the test moves, so that each event comes in the order the test sets.
 */

const cleanup = cleanupAfterAll();

const LOCAL = { id: 'prf_ownerlocal001', name: 'Local sandbox', baseUrl: '', kind: 'local' };
const keychain = await testKeychain();
cleanup.push(() => keychain.delete(LOCAL.id));

async function dataFolder(): Promise<{ dir: string; folder: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'burrow-owner-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  await writeProfiles(dir, [LOCAL], LOCAL.id);
  const folder = join(dir, 'local-sandbox');
  await mkdir(folder, { mode: 0o700 });
  return { dir, folder };
}

/** Core's profiles on `dir` as a shell makes them: the app (watching), or a command (`watchMs` 0). */
async function core(dir: string, options: { clock?: Clock; watchMs?: number } = {}) {
  const service = new ProfileService({
    store: await openConfStore(dir),
    secrets: keychain,
    localSandboxDir: join(dir, 'local-sandbox'),
    startLocalSandbox: startEmbeddedSandbox,
    localSandboxWatchMs: options.watchMs ?? 50,
    ...(options.clock && { localSandboxClock: options.clock }),
  });
  cleanup.push(() => service.close());
  await service.init();
  return service;
}

const record = async (folder: string) =>
  JSON.parse(await readFile(join(folder, RECORD_FILE), 'utf8')) as { url: string; pid: number };

/** `promise`, or after 45 s (a backstop) a failure saying what `said` sees then. */
function within<T>(promise: Promise<T>, said: () => unknown): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const backstop = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in 45 s; saw ${JSON.stringify(said())}`)),
      45_000,
    );
  });
  return Promise.race([promise, backstop]).finally(() => clearTimeout(timer));
}

describe.skipIf(noSecretService)('the Local sandbox’s owner', () => {
  it('the data file held with no sandbox recorded (an owner quitting): waits, then takes it', async () => {
    const { dir, folder } = await dataFolder();
    // An owner between taking its record away and letting go of the data file.
    const quitting = await startEmbeddedSandbox({ dataDir: folder, apiKey: 'the-quitting-key' });
    const stepped = steppedClock();
    const command = await core(dir, { clock: stepped.clock, watchMs: 0 });
    const asked = command.client(LOCAL.id);
    asked.catch(() => undefined);

    await stepped.waiting(() => command.state().local);
    expect(command.state().local.state).toBe('starting');
    await quitting.close();
    stepped.step();

    const { client } = await within(asked, () => command.state().local);
    await client.tunnelSessions.list({ limit: 1 });
    expect((await record(folder)).pid).toBe(process.pid);
  });

  it('gives up only when the data file stays held with nothing recorded for 60 s, naming why', async () => {
    const { dir, folder } = await dataFolder();
    const stuck = await startEmbeddedSandbox({ dataDir: folder, apiKey: 'the-stuck-key' });
    cleanup.push(() => stuck.close());
    const stepped = steppedClock();
    const command = await core(dir, { clock: stepped.clock, watchMs: 0 });
    const asked = command.client(LOCAL.id);
    asked.catch(() => undefined);

    await stepped.waiting(() => command.state().local);
    stepped.step(59_000);
    await stepped.waiting(() => command.state().local);
    stepped.step(1_000);
    await expect(within(asked, () => command.state().local)).rejects.toThrow(
      new RegExp(
        `in use by another sandbox \\(pid ${process.pid}\\).*, and for 60 s it recorded no ` +
          'sandbox this one could use',
      ),
    );
    expect(command.state().local.state).toBe('failed');
  });

  it('the app first, a command later: the app, quitting, lets the command finish first', async () => {
    const { dir, folder } = await dataFolder();
    const appClock = steppedClock();
    const app = await core(dir, { clock: appClock.clock });
    await (await app.client(LOCAL.id)).client.tunnelSessions.list({ limit: 1 });
    const command = await core(dir, { watchMs: 0 });
    const { client } = await command.client(LOCAL.id);
    expect(command.state().profiles[0]?.baseUrl).toBe(app.state().profiles[0]?.baseUrl);

    const quit = app.close();
    // The record is gone (nothing new joins), and the app waits for the command.
    await appClock.waiting(() => existsSync(join(folder, RECORD_FILE)));
    expect(existsSync(join(folder, RECORD_FILE))).toBe(false);
    await client.tunnelSessions.list({ limit: 1 });
    await command.close();
    appClock.step();
    await within(quit, () => 'the app still quitting');
    expect(existsSync(join(folder, 'sandbox.json.lock'))).toBe(false);
  });

  it('eight starters at once on a first run: one sandbox, one key, every one answered', async () => {
    const { dir, folder } = await dataFolder();
    await keychain.delete(LOCAL.id);
    const services = await Promise.all(Array.from({ length: 8 }, () => core(dir)));
    const clients = await Promise.all(services.map((s) => s.client(LOCAL.id)));
    for (const { client } of clients) await client.tunnelSessions.list({ limit: 1 });
    const { url } = await record(folder);
    expect(services.map((s) => s.state().profiles[0]?.baseUrl)).toEqual(services.map(() => url));
  });

  it('a joined sandbox slow to prove itself is kept; silent for 10 s, it is left for its own', async () => {
    const { dir, folder } = await dataFolder();
    await keychain.set(LOCAL.id, 'the-owners-key');
    // Another process's sandbox, as far as its joiner can tell: recorded, its process running,
    // and answering its challenge while `proving`, with a wrong proof (a slow one's outcome) not.
    const secret = randomBytes(32).toString('hex');
    let proving = true;
    const owner = createServer((request, response) => {
      const challenge = new URL(request.url ?? '/', 'http://owner').searchParams.get('challenge');
      void (proving ? ownerProof(secret, challenge ?? '') : Promise.resolve('0'.repeat(64))).then(
        (proof) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ proof }));
        },
      );
    });
    await new Promise<void>((resolve) => owner.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => owner.close(resolve)));
    const url = `http://127.0.0.1:${(owner.address() as AddressInfo).port}`;
    await writeFile(join(folder, RECORD_FILE), JSON.stringify({ url, pid: process.pid, secret }));

    const stepped = steppedClock();
    const app = await core(dir, { clock: stepped.clock });
    const { client } = await app.client(LOCAL.id);
    const look = async (extraMs = 0) => {
      await stepped.waiting(() => app.state().local);
      stepped.step(extraMs);
    };
    // Looks unanswered for 9 s, then answered: the same sandbox, the same client.
    proving = false;
    await look();
    await look(9_000);
    proving = true;
    await look();
    await stepped.waiting(() => app.state().local);
    expect(app.state()).toMatchObject({
      local: { state: 'running' },
      profiles: [{ baseUrl: url }],
    });
    expect(app.readyClient(LOCAL.id)).toBe(client);

    // Unanswered for 10 s: taken for gone, and this process runs its own on the data file.
    proving = false;
    const left = new Promise<void>((resolve) => {
      const off = app.onChange(({ local }) => {
        if (local.state !== 'stopped') return;
        off();
        resolve();
      });
    });
    await look();
    await look(10_000);
    await within(left, () => app.state().local);
    const again = await within(app.client(LOCAL.id), () => app.state().local);
    expect(again.client).not.toBe(client);
    await again.client.tunnelSessions.list({ limit: 1 });
    expect(await record(folder)).toMatchObject({
      pid: process.pid,
      url: app.state().profiles[0]?.baseUrl,
    });
    expect(app.state().profiles[0]?.baseUrl).not.toBe(url);
  });

  it.each([
    ['a wrong proof', () => Promise.resolve(JSON.stringify({ proof: '0'.repeat(64) }))],
    // Its own proof, but in more than a proof's bytes: read no further, so not proved.
    [
      'the right proof in 4 KB',
      async (secret: string, challenge: string) =>
        JSON.stringify({ proof: await ownerProof(secret, challenge) }) + ' '.repeat(4096),
    ],
  ])(
    'a record naming a live pid whose port something else listens on (%s): the key never goes there',
    async (_, answer) => {
      const { dir, folder } = await dataFolder();
      const seen: { url: string | undefined; headers: IncomingHttpHeaders }[] = [];
      const secret = randomBytes(32).toString('hex');
      const foreign = createServer((request, response) => {
        seen.push({ url: request.url, headers: request.headers });
        const challenge = new URL(request.url ?? '/', 'http://foreign').searchParams.get(
          'challenge',
        );
        void answer(secret, challenge ?? '').then((body) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(body);
        });
      });
      await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
      cleanup.push(() => new Promise((resolve) => foreign.close(resolve)));
      const url = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
      const leftover = { url, pid: process.pid, secret };
      await writeFile(join(folder, RECORD_FILE), JSON.stringify(leftover), { mode: 0o600 });

      const app = await core(dir);
      const { client } = await app.client(LOCAL.id);
      await client.tunnelSessions.list({ limit: 1 });
      expect(app.state().profiles[0]?.baseUrl).not.toBe(url);
      expect(seen.map((r) => r.url)).toEqual([
        expect.stringMatching(/^\/\.burrow\/owner\?challenge=[0-9a-f]{64}$/),
      ]);
      expect(seen.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
      expect(await record(folder)).toMatchObject({ url: app.state().profiles[0]?.baseUrl });
    },
  );

  it.each([
    ['a FIFO', (path: string) => void spawnSync('mkfifo', [path])],
    [
      'a symlink to a FIFO',
      async (path: string) => {
        const elsewhere = `${path}.elsewhere`;
        spawnSync('mkfifo', [elsewhere]);
        await symlink(elsewhere, path);
      },
    ],
  ])(
    '%s in the record’s place: read without waiting, and replaced by the record',
    async (_, make) => {
      const { dir, folder } = await dataFolder();
      const path = join(folder, RECORD_FILE);
      await make(path);
      const app = await core(dir);
      const { client } = await within(app.client(LOCAL.id), () => app.state().local);
      await client.tunnelSessions.list({ limit: 1 });
      expect((await lstat(path)).isFile()).toBe(true);
      expect((await record(folder)).pid).toBe(process.pid);
    },
  );
});
