/**
 * Boots a built main process under Node with `electron` resolved to the stand-in beside this file,
 * a throwaway home and data folder, and a keychain of its own (a private D-Bus session with GNOME
 * Keyring), and talks to it as the stand-in lets: what it told, IPC calls from the page, quitting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_ORIGIN } from '../../../../core/ipc/sender.ts';
import { IPC_INVOKE_CHANNEL, type IpcReply } from '../../../../shared/app/ipc/bridge.ts';
import type { FromStandIn, ToStandIn } from './messages.ts';

export type Booted = {
  child: ChildProcess;
  told: FromStandIn[];
  /** Resolves with the first thing told that `match` accepts, even one told already. */
  until<T extends FromStandIn>(match: (m: FromStandIn) => m is T, ms?: number): Promise<T>;
  invoke(name: string, ...args: unknown[]): Promise<IpcReply>;
  output: string[];
};

export type BootOptions = {
  /** The built main process (dist/electron/main.js), started with `appPath` as its folder. */
  main: string;
  /** What `app.getAppPath()` answers: the folder holding dist/ and build/. */
  appPath: string;
  home: string;
  /** Only these variables and the stand-in's reach the app (by default, the test's). */
  env?: NodeJS.ProcessEnv;
};

/*
 * Loaded with `--import` before the main process: tsx (which compiles the stand-in's TypeScript)
 * and a resolve hook that answers `electron` with the stand-in, every other module as Node
 * resolves it. Both by absolute URL, so that the app's own folder needs neither in its
 * node_modules; the hook as a data: URL, because worker threads inherit these flags and load no
 * TypeScript (on Node 20, tsx registers itself in the main thread only).
 */
/**
 * How long a wait for the main process may take before the test fails: a backstop, not a budget.
 * A boot that takes a second alone took over 20 s on a two-core machine running the rest of the
 * suite beside it.
 */
const BACKSTOP_MS = 60_000;

const standIn = new URL('./electron.ts', import.meta.url).href;
const hook = `export async function resolve(specifier, context, next) {
  return next(specifier === 'electron' ? ${JSON.stringify(standIn)} : specifier, context);
}`;
const registerHook = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
const loaders = [
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
  `data:text/javascript,${encodeURIComponent(registerHook)}`,
];

export function bootMain(options: BootOptions): Booted {
  // A keychain of its own: the key of the Local sandbox profile goes there and nowhere else.
  const command = [
    'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
    'exec "$0" "$@"',
  ].join('; ');
  const node = [process.execPath, ...loaders.flatMap((url) => ['--import', url]), options.main];
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', command, ...node], {
    cwd: options.appPath,
    env: {
      ...(options.env ?? process.env),
      HOME: options.home,
      BURROW_STAND_IN_DATA: path.join(options.home, 'data'),
      BURROW_STAND_IN_APP_PATH: options.appPath,
    },
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
  const until: Booted['until'] = (match, ms = BACKSTOP_MS) =>
    new Promise((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        waiting.delete(check);
        reject(
          new Error(
            `${why}; it had told: ${told.map((m) => m.what).join(', ') || 'nothing'}; the process said:\n${output.join('')}`,
          ),
        );
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

/** A matcher for one kind of thing told. */
export const is =
  <W extends FromStandIn['what']>(what: W) =>
  (m: FromStandIn): m is Extract<FromStandIn, { what: W }> =>
    m.what === what;

/** Ends the app if it still runs: closing the channel ends it (see the stand-in), then D-Bus. */
export async function stopMain(booted: Booted): Promise<void> {
  const { child } = booted;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.disconnect();
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
