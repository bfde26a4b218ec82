/**
 * The whole main process, booted: the built dist/electron/main.js under Node, with `electron`
 * resolved to a stand-in typed against Electron's definitions (./stand-in), a throwaway home and
 * data folder, and a keychain of its own (a private D-Bus session with GNOME Keyring). Everything
 * else is real: core, the embedded Local sandbox with its demo agents, the monitor, the
 * notification policy. It catches a bundle that cannot load (a missing file, an ESM/CJS
 * mix-up, a path outside dist/) as well as wiring that unit tests of the pieces cannot see.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../core/ipc/sender.ts';
import { IPC_INVOKE_CHANNEL } from '../../../shared/app/ipc/bridge.ts';
import type { MonitorSnapshot } from '../../../shared/app/monitor.ts';
import { bootMain, is, stopMain, type Booted } from './stand-in/boot.ts';
import type { FromStandIn, ToStandIn } from './stand-in/messages.ts';

const root = path.resolve(import.meta.dirname, '../../..');
// Built by the project's global setup (tests/support/build-once.ts) with the rest of dist/.
const bundle = path.join(root, 'dist/electron/main.js');

const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-main-'));
let app: Booted;

beforeAll(() => {
  app = bootMain({ main: bundle, appPath: root, home });
}, 60_000);

afterAll(async () => {
  await stopMain(app);
  rmSync(home, { recursive: true, force: true });
});

it("starts: takes the single-instance lock, serves the page with the CSP, refuses permissions but the page's clipboard writes", async () => {
  await app.until(is('lock'));
  const order = app.told.map((m) => m.what);
  expect(order.indexOf('sandbox')).toBeLessThan(order.indexOf('lock'));
  expect((await app.until(is('schemes'))).schemes).toEqual(['app']);
  const headers = (await app.until(is('headers'))).headers;
  expect(headers['Content-Security-Policy']?.[0]).toContain("default-src 'none'");
  // Only the app's own page, in its main frame, may write to the clipboard (its Copy buttons).
  await app.until((m): m is FromStandIn => m.what === 'permissions' && m.by === 'request');
  const permissions = app.told.filter(is('permissions'));
  expect(permissions.map((p) => p.by).sort()).toEqual(['check', 'request']);
  for (const { granted } of permissions)
    expect(granted).toEqual(['clipboard-sanitized-write app://burrow/index.html']);
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
}, 180_000);

it('quits within 4 s, closing the tray and core', async () => {
  const asked = Date.now();
  app.child.send({ do: 'quit' } satisfies ToStandIn);
  const exited = new Promise<number | null>((resolve) => app.child.on('exit', resolve));
  expect((await app.until(is('exit'))).code).toBe(0);
  await app.until(is('tray.destroyed'), 0);
  expect(await exited).toBe(0);
  expect(Date.now() - asked).toBeLessThan(4000);
});
