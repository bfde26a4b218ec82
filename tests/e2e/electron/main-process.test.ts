/**
 * The whole main process, booted: the built dist/electron/main.js under Node, with `electron`
 * resolved to a stand-in typed against Electron's definitions (./stand-in), a throwaway home and
 * data folder, and a keychain of its own (a private D-Bus session with GNOME Keyring). Everything
 * else is real: core, the embedded Local sandbox with its demo agents, the monitor, the
 * notification policy. It catches a bundle that cannot load (a missing file, an ESM/CJS
 * mix-up, a path outside dist/) as well as wiring that unit tests of the pieces cannot see.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../core/ipc/sender.ts';
import { IPC_INVOKE_CHANNEL, type IpcReply } from '../../../shared/app/ipc/bridge.ts';
import type { MonitorSnapshot } from '../../../shared/app/monitor.ts';
import { isOutOfDate } from '../../support/build-once.ts';
import type { FromStandIn, ToStandIn } from './stand-in/messages.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const bundle = path.join(root, 'dist/electron/main.js');

/** Builds dist/electron when it is missing or older than its sources (about 2 s). */
function ensureBuilt(): void {
  if (!isOutOfDate(bundle, ['electron', 'core', 'shared', 'sandbox'])) return;
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-electron.ts'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`building dist/electron failed:\n${run.stderr}`);
}

type Booted = {
  child: ChildProcess;
  told: FromStandIn[];
  /** Resolves with the first thing told that `match` accepts, even one told already. */
  until<T extends FromStandIn>(match: (m: FromStandIn) => m is T, ms?: number): Promise<T>;
  invoke(name: string, ...args: unknown[]): Promise<IpcReply>;
  output: string[];
};

const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-main-'));
let app: Booted;

function boot(): Booted {
  // A keychain of its own: the key of the Local sandbox profile goes there and nowhere else.
  const command = [
    'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
    'exec "$0" --import tsx --import ./tests/e2e/electron/stand-in/register.ts dist/electron/main.js',
  ].join('; ');
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', command, process.execPath], {
    cwd: root,
    env: { ...process.env, HOME: home, BURROW_STAND_IN_DATA: path.join(home, 'data') },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const told: FromStandIn[] = [];
  const waiting = new Set<() => void>();
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  let exited = false;
  const wakeAll = () => {
    for (const wake of waiting) wake();
  };
  child.on('message', (message: FromStandIn) => {
    told.push(message);
    wakeAll();
  });
  // A bundle that cannot load ends the process at once: every wait fails then, not at its timeout.
  child.on('exit', () => {
    exited = true;
    wakeAll();
  });
  const until: Booted['until'] = (match, ms = 20_000) =>
    new Promise((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        waiting.delete(check);
        reject(new Error(`${why}; the process said:\n${output.join('')}`));
      };
      const timer = setTimeout(() => fail(`nothing told matched in ${ms} ms`), ms);
      const check = () => {
        const found = told.find(match);
        if (!found) {
          if (exited) fail('the main process ended');
          return;
        }
        clearTimeout(timer);
        waiting.delete(check);
        resolve(found);
      };
      waiting.add(check);
      check();
    });
  let ids = 0;
  const invoke = async (name: string, ...args: unknown[]) => {
    const id = ++ids;
    const message: ToStandIn = {
      do: 'invoke',
      id,
      channel: IPC_INVOKE_CHANNEL,
      frameUrl: `${APP_ORIGIN}/index.html`,
      name,
      args,
    };
    child.send(message);
    const reply = await until(
      (m): m is Extract<FromStandIn, { what: 'reply' }> => m.what === 'reply' && m.id === id,
    );
    return reply.reply as IpcReply;
  };
  return { child, told, until, invoke, output };
}

const is =
  <W extends FromStandIn['what']>(what: W) =>
  (m: FromStandIn): m is Extract<FromStandIn, { what: W }> =>
    m.what === what;

beforeAll(() => {
  ensureBuilt();
  app = boot();
}, 60_000);

afterAll(async () => {
  if (app.child.exitCode === null && app.child.signalCode === null) {
    // Closing the channel ends the app (see the stand-in), then its D-Bus session.
    const ended = new Promise((resolve) => app.child.once('exit', resolve));
    app.child.disconnect();
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (app.child.exitCode === null) app.child.kill('SIGKILL');
  }
  rmSync(home, { recursive: true, force: true });
});

it('starts: takes the single-instance lock, serves the page with the CSP, refuses permissions', async () => {
  await app.until(is('lock'));
  const order = app.told.map((m) => m.what);
  expect(order.indexOf('sandbox')).toBeLessThan(order.indexOf('lock'));
  expect((await app.until(is('schemes'))).schemes).toEqual(['app']);
  const headers = (await app.until(is('headers'))).headers;
  expect(headers['Content-Security-Policy']?.[0]).toContain("default-src 'none'");
  expect((await app.until(is('permission'))).granted).toBe(false);
});

it("builds the tray from core's model and opens the hardened window on the first launch", async () => {
  const icon = await app.until(is('tray.icon'));
  expect(icon.file).toBe(path.join(root, 'build/tray/burrow.png'));
  expect((await app.until(is('tray.menu'))).labels).toEqual(
    expect.arrayContaining(['Open Burrow', 'Quit Burrow']),
  );
  expect((await app.until(is('window'))).webPreferences).toMatchObject({
    preload: path.join(root, 'dist/electron/preload.cjs'),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
  });
  expect((await app.until(is('load'))).url).toBe(`${APP_ORIGIN}/index.html`);
  await app.until(is('show'));
});

it('answers an IPC call through the guard, and refuses one from another page', async () => {
  expect(await app.invoke('app.info')).toEqual({
    ok: true,
    value: { name: 'Burrow', version: '0.0.0-stand-in', shell: 'electron' },
  });
  const id = 1000;
  const message: ToStandIn = {
    do: 'invoke',
    id,
    channel: IPC_INVOKE_CHANNEL,
    frameUrl: 'https://evil.example/index.html',
    name: 'app.info',
    args: [],
  };
  app.child.send(message);
  const refused = await app.until(
    (m): m is Extract<FromStandIn, { what: 'reply' }> => m.what === 'reply' && m.id === id,
  );
  expect(refused.reply).toMatchObject({ ok: false, error: { code: 'IPC_UNTRUSTED_SENDER' } });
});

it('shows a native notification for a monitor event (a demo agent restarted)', async () => {
  // The first launch creates the Local sandbox profile, whose demo agents come online; the
  // shortest poll interval lets the monitor see the restarted agent sooner.
  expect(await app.invoke('settings.update', { pollIntervalSeconds: 5 })).toMatchObject({
    ok: true,
  });
  const online = async () => {
    const reply = await app.invoke('sessions.snapshot');
    const snapshot = (reply.ok ? reply.value : undefined) as MonitorSnapshot | undefined;
    return snapshot?.profiles[0];
  };
  let profile = await online();
  for (let tries = 0; !profile?.sessions.some((s) => s.os !== 'windows') && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    profile = await online();
  }
  const agent = profile?.sessions.find((s) => s.os !== 'windows');
  expect(agent, 'a demo agent that can restart').toBeDefined();
  const ran = await app.invoke('sessions.run', {
    profileId: profile?.profileId,
    sessionId: agent?.id,
    action: 'restart',
  });
  expect(ran).toMatchObject({ ok: true, value: { ok: true } });
  const shown = await app.until(is('notification'), 30_000);
  // One profile: the agent's name and what happened, no profile named.
  expect(shown.title).toMatch(/^[^:]+ restarted$/);
  expect(shown.body).toMatch(/^Back at \d{1,2}:\d\d(\s[AP]M)? with a new session/);
}, 60_000);

it('quits within 4 s, closing the tray and core', async () => {
  const asked = Date.now();
  app.child.send({ do: 'quit' } satisfies ToStandIn);
  const exited = new Promise<number | null>((resolve) => app.child.on('exit', resolve));
  expect((await app.until(is('exit'), 4000)).code).toBe(0);
  await app.until(is('tray.destroyed'), 0);
  expect(await exited).toBe(0);
  expect(Date.now() - asked).toBeLessThan(4000);
});
