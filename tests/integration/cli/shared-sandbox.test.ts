import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../shared/node/clock.ts';
import { RECORD_FILE } from '../../../core/profiles/local-sandbox-record.ts';
import { ProfileService } from '../../../core/profiles/profiles.ts';
import { openConfStore } from '../../../core/store.ts';
import { startEmbeddedSandbox } from '../../../sandbox/embedded.ts';
import { builtBurrow } from '../../support/built-cli.ts';
import { noSecretService } from '../../support/secret-service.ts';
import { steppedClock } from '../../support/stepped-clock.ts';
import { testKeychain, writeProfiles } from '../core/profiles/support.ts';
import { tempDir } from './support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

const cleanup = cleanupAfterAll();

const LOCAL = { id: 'prf_sharedlocal001', name: 'Local sandbox', baseUrl: '', kind: 'local' };
const keychain = await testKeychain();
cleanup.push(() => keychain.delete(LOCAL.id));

/** An app's data folder with its Local sandbox profile, active. */
async function dataFolder(): Promise<string> {
  const dir = await tempDir(cleanup);
  await writeProfiles(dir, [LOCAL], LOCAL.id);
  return dir;
}

/** The app's core on `dir` as the shells make it, its Local sandbox checked on every 50 ms. */
async function app(dir: string, clock?: Clock): Promise<ProfileService> {
  const service = new ProfileService({
    store: await openConfStore(dir),
    secrets: keychain,
    localSandboxDir: join(dir, 'local-sandbox'),
    startLocalSandbox: startEmbeddedSandbox,
    localSandboxWatchMs: 50,
    ...(clock && { localSandboxClock: clock }),
  });
  cleanup.push(() => service.close());
  await service.init();
  return service;
}

const record = async (dir: string) =>
  JSON.parse(await readFile(join(dir, 'local-sandbox', RECORD_FILE), 'utf8')) as {
    url: string;
    pid: number;
  };

/** The built `burrow` in a process of its own, on `dir`, the test's keychain service. */
function burrow(dir: string, ...argv: string[]) {
  const child = spawn(process.execPath, [builtBurrow(), ...argv, '--data-dir', dir], {
    env: { ...process.env, BURROW_KEYCHAIN_SERVICE: keychain.service },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, out, exited };
}

const sessionIds = (json: string) => (JSON.parse(json) as { id: string }[]).map((s) => s.id).sort();

/** Within 45 s: a command starting its own sandbox on a loaded two-core machine took over 20. */
async function until(
  check: () => boolean | Promise<boolean>,
  said: () => string = () => '',
): Promise<void> {
  const end = Date.now() + 45_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waited too long${said() && `; it said: ${said()}`}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(noSecretService)('one Local sandbox for the app and the command', () => {
  it('burrow sessions uses the app’s; the record is 0600 and holds no key', async () => {
    const dir = await dataFolder();
    const core = await app(dir);
    const { client } = await core.client(LOCAL.id);
    const listed = await client.tunnelSessions.listAll();

    const file = join(dir, 'local-sandbox', RECORD_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(await keychain.get(LOCAL.id));
    expect(await record(dir)).toMatchObject({
      pid: process.pid,
      url: core.state().profiles[0]?.baseUrl,
    });

    const command = burrow(dir, 'sessions', '--json');
    expect(await command.exited, command.out.stderr).toBe(0);
    // The same sessions: the app's sandbox answered, not one of the command's own.
    expect(sessionIds(command.out.stdout)).toEqual(listed.map((s) => s.id).sort());
    // The command let go of nothing of the app's: its sandbox still answers, still recorded.
    await client.tunnelSessions.list({ limit: 1 });
    expect((await record(dir)).pid).toBe(process.pid);
    // A clean quit takes the record away with the sandbox.
    await core.close();
    expect(existsSync(file)).toBe(false);
  });

  it('a stale record (nothing listening, or its process gone) is ignored and replaced', async () => {
    const dir = await dataFolder();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.on('close', resolve));
    const folder = join(dir, 'local-sandbox');
    await mkdir(folder, { mode: 0o700 });

    // A live process (this one) but nothing listening: the command starts its own.
    await writeFile(join(folder, RECORD_FILE), JSON.stringify({ url: closed, pid: process.pid }));
    const command = burrow(dir, 'sessions', '--json');
    expect(await command.exited, command.out.stderr).toBe(0);
    expect(sessionIds(command.out.stdout)).toHaveLength(3);
    // A process gone: the app starts its own, and its record takes the stale one's place.
    await writeFile(join(folder, RECORD_FILE), JSON.stringify({ url: closed, pid: dead.pid }));
    const core = await app(dir);
    await core.client(LOCAL.id);
    expect(await record(dir)).toEqual({
      url: core.state().profiles[0]?.baseUrl,
      pid: process.pid,
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('the command first, the app later: the app uses its sandbox, then runs its own when it ends', async () => {
    const dir = await dataFolder();
    const watch = burrow(dir, 'sessions', '--watch', '--json');
    // Ended by the test; by this if the test fails first.
    cleanup.push(async () => watch.child.kill('SIGKILL'));
    await until(
      () => watch.out.stdout.includes('\n'),
      () => watch.out.stderr,
    );
    expect((await record(dir)).pid).toBe(watch.child.pid);

    const core = await app(dir);
    const first = await core.client(LOCAL.id);
    await first.client.tunnelSessions.list({ limit: 1 });
    expect(core.state().profiles[0]?.baseUrl).toBe((await record(dir)).url);

    watch.child.kill('SIGINT');
    expect(await watch.exited, watch.out.stderr).toBe(0);
    // The app starts its own on the data file the command let go of.
    await until(
      async () =>
        core.state().local.state === 'running' &&
        (await record(dir).catch(() => undefined))?.pid === process.pid,
    );
    const again = await core.client(LOCAL.id);
    expect(again.client).not.toBe(first.client);
    await again.client.tunnelSessions.list({ limit: 1 });
  }, 120_000);

  it('eight commands started at once on a first run all succeed, on one key', async () => {
    const dir = await dataFolder();
    // A first run: each command makes a key, and one of them ends up the sandbox's and the keychain's.
    await keychain.delete(LOCAL.id);
    const commands = Array.from({ length: 8 }, () => burrow(dir, 'sessions', '--json'));
    const codes = await Promise.all(commands.map((c) => c.exited));
    const said = commands.map((c, i) => `#${i} ${codes[i]}: ${c.out.stderr.trim()}`).join('\n');
    expect(codes, said).toEqual(commands.map(() => 0));
    for (const command of commands) expect(sessionIds(command.out.stdout)).toHaveLength(3);
  }, 120_000);

  it('the app first, commands later: one it lets finish as it quits, one that waits takes over', async () => {
    const dir = await dataFolder();
    const folder = join(dir, 'local-sandbox');
    const appClock = steppedClock();
    const core = await app(dir, appClock.clock);
    await (await core.client(LOCAL.id)).client.tunnelSessions.list({ limit: 1 });
    const watch = burrow(dir, 'sessions', '--watch', '--json');
    cleanup.push(async () => watch.child.kill('SIGKILL'));
    await until(
      () => watch.out.stdout.includes('\n'),
      () => watch.out.stderr,
    );

    // Quitting: its record gone, it waits for the watching command, the data file still held.
    const quit = core.close();
    await appClock.waiting(() => existsSync(join(folder, RECORD_FILE)));
    expect(existsSync(join(folder, RECORD_FILE))).toBe(false);
    expect(existsSync(join(folder, 'sandbox.json.lock'))).toBe(true);
    // A command started in the gap says that it waits, rather than failing.
    const late = burrow(dir, 'sessions', '--json');
    await until(
      () => late.out.stderr.includes('held by another process'),
      () => late.out.stderr,
    );
    expect(late.out.stderr).toContain(`(pid ${process.pid}): waiting for it`);

    watch.child.kill('SIGINT');
    expect(await watch.exited, watch.out.stderr).toBe(0);
    appClock.step();
    await quit;
    expect(await late.exited, late.out.stderr).toBe(0);
    // Its own sandbox's (the demo's agents connect anew on each start).
    expect(sessionIds(late.out.stdout)).toHaveLength(3);
  }, 120_000);
});
