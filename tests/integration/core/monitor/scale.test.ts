/**
 * The monitor at scale, with the agent library in this process (a process per agent would be
 * 1,000 Node processes): 1,000 sessions read across ten pages, and 50 agents lost at once told
 * as one event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../../sandbox/agent/agent.ts';
import { startSandbox, type Sandbox } from '../../../../sandbox/index.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { until } from '../../../support/agents.ts';
import { drivenMonitor } from './support.ts';

const KEY = 'monitor-scale-key';
const AGENTS = 1_000;
const LOST = 50;
let sandbox: Sandbox;
const agents: Agent[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, rateLimit: 'off' });
  const token = (await apiCaller(sandbox.url, KEY)('POST', '/credentials', {})).body.token;
  for (let i = 0; i < AGENTS; i++)
    agents.push(
      new Agent({
        url: sandbox.agentUrl,
        authtoken: token,
        version: '3.1.2',
        os: 'linux',
        metadata: `agent ${i}`,
      }).start(),
    );
  await Promise.all(agents.map((agent) => agent.online(30_000)));
});

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await sandbox?.close();
});

describe('the session monitor at scale', () => {
  it('lists 1,000 sessions across ten pages, and tells 50 lost at once as one event', async () => {
    const watch = drivenMonitor(sandbox.url, KEY);
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    const [profile] = watch.monitor.snapshot().profiles;
    expect(profile?.pages).toBe(10);
    const ids = new Set(profile?.sessions.map((s) => s.id));
    expect(ids.size).toBe(AGENTS);
    expect(ids).toEqual(new Set(agents.map((agent) => agent.session)));

    const lost = agents.slice(0, LOST);
    const lostIds = lost.map((agent) => agent.session);
    await Promise.all(lost.map((agent) => agent.stop()));
    const api = apiCaller(sandbox.url, KEY);
    await until(
      async () => (await api('GET', `/tunnel_sessions/${lostIds[LOST - 1]}`)).status === 404,
      10_000,
    );
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    await watch.monitor.pollNow();
    const events = watch.take();
    expect(events).toHaveLength(1);
    const [offline] = events;
    expect(offline?.kind).toBe('offline');
    expect(new Set(offline?.kind === 'offline' ? offline.sessions.map((s) => s.id) : [])).toEqual(
      new Set(lostIds),
    );
    expect(watch.sessions()).toHaveLength(AGENTS - LOST);
    await watch.monitor.close();
  });
});
