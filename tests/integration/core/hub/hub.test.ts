import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { connectHub, type HubConnection } from '../../../../core/hub/client.ts';
import { hubAddress, hubRecordPath } from '../../../../core/hub/place.ts';
import { startHub, type Hub } from '../../../../core/hub/server.ts';
import type { IpcImplementation } from '../../../../core/ipc/dispatch.ts';
import { EventHub } from '../../../../core/ipc/events.ts';

/*
 * The running app as the hub of `burrow` commands: only a process that knows this start's secret
 * gets in, and a command never waits on a channel that is dead, foreign, silent or not a file.
 */

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'burrow-hub-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The contract's `app.info`, answered; every other call refused by the dispatcher's checks. */
const implementation = {
  calls: { 'app.info': () => ({ name: 'Burrow', version: 'test', shell: 'browser' }) },
  call: () => Promise.reject(new Error('no API here')),
  listAll: () => Promise.reject(new Error('no API here')),
} as unknown as IpcImplementation;

async function hub(dataDir: string, events = new EventHub()): Promise<Hub> {
  const started = await startHub({ dataDir, implementation, events });
  if (!started) throw new Error('the hub did not start');
  cleanup.push(() => started.close());
  return started;
}

function connected(found: HubConnection | { why: string }): HubConnection {
  if (!('call' in found)) throw new Error(found.why);
  cleanup.push(async () => found.close());
  return found;
}

it('answers calls and sends events to a proven command; socket and record are the user’s', async () => {
  const dir = await folder();
  const events = new EventHub();
  const started = await hub(dir, events);
  expect((await stat(started.address)).mode & 0o777).toBe(0o600);
  expect((await stat(hubRecordPath(dir))).mode & 0o777).toBe(0o600);
  const command = connected(await connectHub(dir));
  expect(await command.call('app.info', [])).toEqual({
    ok: true,
    value: { name: 'Burrow', version: 'test', shell: 'browser' },
  });
  const refused = await command.call('no.such.call', []);
  expect(refused).toMatchObject({ ok: false, error: { code: 'IPC_UNKNOWN_CALL' } });
  const heard: unknown[] = [];
  command.onEvent((event) => heard.push(event));
  events.emit('activity.appended', { unseen: 2 });
  await expect.poll(() => heard).toEqual([{ name: 'activity.appended', payload: { unseen: 2 } }]);
  expect(started.connections()).toBe(1);
  await started.close();
  await expect(readFile(hubRecordPath(dir))).rejects.toThrow(/ENOENT/);
  // Calls made after the app quit are answered, not left waiting.
  expect(await command.call('app.info', [])).toMatchObject({
    ok: false,
    error: { code: 'HUB_GONE' },
  });
});

it('a command that does not know the secret is let go, and sees no event', async () => {
  const dir = await folder();
  await hub(dir);
  const record = JSON.parse(await readFile(hubRecordPath(dir), 'utf8')) as { secret: string };
  await writeFile(hubRecordPath(dir), JSON.stringify({ ...record, secret: 'a'.repeat(64) }));
  expect(await connectHub(dir)).toEqual({ why: 'what listens there is not this Burrow app' });
});

it('a record of a quit app, a silent listener, a FIFO or a link: the command goes on alone', async () => {
  const dir = await folder();
  const address = hubAddress(dir) ?? '';
  const secret = 'b'.repeat(64);
  const record = (pid: number) => JSON.stringify({ pid, address, secret });
  expect(await connectHub(dir)).toEqual({ why: 'no Burrow app serves this data folder' });

  const gone = Number(
    execFileSync(process.execPath, ['-e', 'console.log(process.pid)']).toString(),
  );
  await writeFile(hubRecordPath(dir), record(gone));
  expect(await connectHub(dir)).toMatchObject({ why: expect.stringMatching(/has quit/) });

  // Something of this process's listens there, accepts, and never says a word.
  const held: Socket[] = [];
  const silent: Server = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(address, resolve));
  cleanup.push(() => {
    for (const socket of held) socket.destroy();
    return new Promise((resolve) => silent.close(resolve));
  });
  await writeFile(hubRecordPath(dir), record(process.pid));
  expect(await connectHub(dir, 200)).toEqual({
    why: 'the Burrow app did not answer in time',
  });

  await rm(hubRecordPath(dir));
  execFileSync('mkfifo', [hubRecordPath(dir)]);
  expect(await connectHub(dir)).toEqual({ why: 'no Burrow app serves this data folder' });
  await rm(hubRecordPath(dir));
  const elsewhere = join(dir, 'elsewhere.json');
  await writeFile(elsewhere, record(process.pid));
  execFileSync('ln', ['-s', elsewhere, hubRecordPath(dir)]);
  expect(await connectHub(dir)).toEqual({ why: 'no Burrow app serves this data folder' });
});

it('a second app on the same folder leaves the first one serving', async () => {
  const dir = await folder();
  await hub(dir);
  expect(await startHub({ dataDir: dir, implementation, events: new EventHub() })).toBeUndefined();
  connected(await connectHub(dir));
});
