/**
 * The API going away under the monitor: the sandbox stopped and started again on the same port
 * and data file, and the monitor's key revoked (a restart with an accounts file that no longer
 * holds it). Neither is news about the agents: no offline, no restarted.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../../sandbox/index.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { killAll, startAgent } from '../../../support/agents.ts';
import { sandboxKeyedTo } from '../../../integration/core/api/support.ts';
import { freePort } from '../../../support/free-port.ts';
import { drivenMonitor, PROFILE } from '../../../integration/core/monitor/support.ts';

const KEY = 'monitor-outage-key';
let dir = '';
let port = 0;
let sandbox: Sandbox | undefined;

/** The sandbox on the same port and data file, with `apiKey` its one user's only key. */
async function start(apiKey: string): Promise<Sandbox> {
  sandbox = await sandboxKeyedTo(apiKey, port, path.join(dir, 'state.json'));
  return sandbox;
}

beforeAll(async () => {
  dir = await tempDir('burrow-monitor-outage-');
  port = await freePort();
  await start(KEY);
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
  if (dir) await removeDir(dir);
});

describe('the session monitor when the API goes away', () => {
  it('says unreachable once, then recovered, and nothing about agents that reconnected', async () => {
    const url = sandbox?.url ?? '';
    const token = (await apiCaller(url, KEY)('POST', '/credentials', {})).body.token;
    const agent = startAgent(['--api-url', url, '--authtoken', token]);
    await agent.session(0);
    const watch = drivenMonitor(url, KEY);
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);

    await sandbox?.close();
    // Polls are not retried: one that fails is a blip, the next failing one is news.
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    expect(watch.health()).toBe('ok');
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'unreachable', profileId: PROFILE }]);
    expect(watch.health()).toBe('unreachable');
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);

    await start(KEY);
    // Sessions are not persisted: the agent comes back with a new session id.
    const reconnected = await agent.session(1);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'recovered', profileId: PROFILE }]);
    expect(watch.sessions().map((s) => s.id)).toEqual([reconnected]);
    await watch.monitor.pollNow();
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    expect(watch.health()).toBe('ok');
    // The agents' reconnection grace ends (its timer's poll runs too).
    await watch.clock.advance(30_000);
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);

    // The key revoked: unauthorized, and an agent lost meanwhile is not reported...
    await sandbox?.close();
    await start('a-new-key');
    await agent.session(2);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([
      { kind: 'unauthorized', profileId: PROFILE, errorCode: 'ERR_SERVICE_203' },
    ]);
    killAll();
    await watch.monitor.pollNow();
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    expect(watch.health()).toBe('unauthorized');

    // ...until the key works again and two polls have missed it.
    await sandbox?.close();
    await start(KEY);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'recovered' }]);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'offline', sessions: [{ id: reconnected }] }]);
    await watch.monitor.close();
  });

  it('says nothing of one failed poll, even when the agents reconnected meanwhile', async () => {
    const url = sandbox?.url ?? '';
    const token = (await apiCaller(url, KEY)('POST', '/credentials', {})).body.token;
    const agent = startAgent(['--api-url', url, '--authtoken', token]);
    const first = await agent.session(0);
    const watch = drivenMonitor(url, KEY);
    await watch.monitor.pollNow();
    expect(watch.sessions().map((s) => s.id)).toContain(first);

    await sandbox?.close();
    await watch.monitor.pollNow();
    await start(KEY);
    const reconnected = await agent.session(1);
    for (let i = 0; i < 3; i++) await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    expect(watch.health()).toBe('ok');
    expect(watch.sessions().map((s) => s.id)).toContain(reconnected);
    await watch.monitor.close();
    killAll();
  });
});
