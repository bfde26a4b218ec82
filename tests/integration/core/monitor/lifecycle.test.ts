/**
 * The monitor's own life against the real sandbox: suspend and resume, 429s, polls on its
 * timer, bad calls. Agents are the agent library in this process: these tests are about the
 * monitor, not about agent processes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../core/api/client.ts';
import { RateGovernor } from '../../../../core/api/governor.ts';
import { createSessionMonitor } from '../../../../core/monitor/monitor.ts';
import { createSessionActions } from '../../../../core/sessions/actions.ts';
import type { ActionEvent } from '../../../../shared/app/sessions/actions.ts';
import type { MonitorHealth } from '../../../../shared/app/monitor.ts';
import { Agent } from '../../../../sandbox/agent/agent.ts';
import { startSandbox, type Sandbox } from '../../../../sandbox/index.ts';
import { FakeClock } from '../../../support/fake-clock.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { until } from '../../../support/agents.ts';
import { FAST_RETRY } from '../api/support.ts';
import { drivenMonitor, PROFILE, testClient } from './support.ts';

const KEY = 'monitor-lifecycle-key';
let sandbox: Sandbox;
let token = '';
const agents: Agent[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, rateLimit: 'off' });
  token = (await apiCaller(sandbox.url, KEY)('POST', '/credentials', {})).body.token;
});

afterEach(async () => {
  sandbox.faults.clear();
  await Promise.all(agents.splice(0).map((agent) => agent.stop()));
});

afterAll(() => sandbox?.close());

async function listedIds(): Promise<string[]> {
  const { body } = await apiCaller(sandbox.url, KEY)('GET', '/tunnel_sessions');
  return body.tunnel_sessions.map((s: { id: string }) => s.id);
}

async function online(metadata: string): Promise<Agent> {
  const agent = new Agent({
    url: sandbox.agentUrl,
    authtoken: token,
    version: '3.1.2',
    os: 'linux',
    metadata,
    updateDurationMs: 1,
  }).start();
  agents.push(agent);
  await agent.online();
  return agent;
}

describe('the session monitor’s life', () => {
  it('polls nothing while paused, and starts quietly again on resume', async () => {
    const first = await online('first');
    const watch = drivenMonitor(sandbox.url, KEY);
    await watch.monitor.pollNow();
    watch.monitor.pause();
    expect(watch.monitor.snapshot().paused).toBe(true);
    await first.stop();
    const second = await online('second');
    await watch.monitor.pollNow();
    await watch.monitor.pollNow();
    expect(watch.monitor.snapshot().profiles[0]?.polls).toBe(1);

    watch.monitor.resume();
    await watch.monitor.pollNow();
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    expect(watch.sessions().map((s) => s.id)).toEqual([second.session]);
    await watch.monitor.close();
  });

  it('is rate limited, not unreachable, behind 429s, and says nothing of it', async () => {
    await online('limited');
    const watch = drivenMonitor(sandbox.url, KEY);
    const healths: MonitorHealth[] = [];
    watch.monitor.onSnapshot((snapshot) => healths.push(snapshot.profiles[0]?.health ?? 'unknown'));
    await watch.monitor.pollNow();
    sandbox.faults.add({ kind: 'rateLimit', count: 2 });
    await watch.monitor.pollNow();
    expect(healths.slice(-2)).toEqual(['rate-limited', 'ok']);

    // A poll that runs out of time behind 429s stays rate limited: no unreachable.
    sandbox.faults.add({ kind: 'rateLimit' });
    const stuck = watch.monitor.pollNow();
    await until(() => watch.health() === 'rate-limited', 10_000);
    await watch.clock.advance(120_000);
    await stuck;
    expect(watch.health()).toBe('rate-limited');
    sandbox.faults.clear();
    await watch.monitor.pollNow();
    expect(watch.health()).toBe('ok');
    expect(watch.take()).toEqual([]);
    await watch.monitor.close();
  });

  it('is rate limited, not unreachable, when its poll waits on the key’s spent window', async () => {
    const governor = new RateGovernor({ limit: { requests: 1, windowMs: 600_000 } });
    const watch = drivenMonitor(sandbox.url, KEY, {
      clientFor: (_id, onEvent) =>
        createApiClient({ baseUrl: sandbox.url, apiKey: KEY, governor, onEvent }),
    });
    await watch.monitor.pollNow();
    const waiting = watch.monitor.pollNow();
    await until(() => governor.state().queued.background === 1, 10_000);
    await watch.clock.advance(120_000);
    await waiting;
    expect(watch.health()).toBe('rate-limited');
    expect(watch.take()).toEqual([]);
    await watch.monitor.close();
  });

  it('polls on its own timer, stretched so that profiles sharing a budget keep to a quarter', async () => {
    const clock = new FakeClock();
    const governor = new RateGovernor();
    const monitor = createSessionMonitor({
      clientFor: (_id, onEvent) =>
        createApiClient({
          baseUrl: sandbox.url,
          apiKey: KEY,
          governor,
          retry: FAST_RETRY,
          onEvent,
        }),
      clock,
    });
    const polls = (id: string) =>
      monitor.snapshot().profiles.find((p) => p.profileId === id)?.polls;
    monitor.setProfiles(['a']);
    await clock.advance(0);
    await until(() => polls('a') === 1, 10_000);
    expect(monitor.snapshot().profiles[0]?.intervalMs).toBe(5_000);
    await clock.advance(4_999);
    expect(polls('a')).toBe(1);
    await clock.advance(1);
    await until(() => polls('a') === 2, 10_000);

    // Eight profiles of one key, a page each: 8 requests a poll; a quarter of 120/min is 30.
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    monitor.setProfiles(ids);
    expect(monitor.snapshot().profiles.map((p) => p.intervalMs)).toEqual(ids.map(() => 16_000));
    await monitor.close();
  });

  it('confirms a session one poll missed 2 s later, not a whole interval later', async () => {
    const leaving = await online('leaving');
    const staying = await online('staying');
    const clock = new FakeClock();
    const monitor = createSessionMonitor({
      clientFor: (_id, onEvent) => testClient(sandbox.url, KEY, onEvent),
      clock,
    });
    const offline: string[] = [];
    monitor.onEvent((e) => {
      if (e.kind === 'offline') offline.push(...e.sessions.map((s) => s.id));
    });
    const profile = () => monitor.snapshot().profiles[0];
    const pollsReach = (n: number) => until(() => profile()?.polls === n, 10_000);
    monitor.setProfiles(['a']);
    await clock.advance(0);
    await pollsReach(1);
    const gone = leaving.session;
    await leaving.stop();
    await until(async () => !(await listedIds()).includes(gone ?? ''), 10_000);

    await clock.advance(5_000);
    await pollsReach(2);
    expect(profile()?.missing?.map((m) => m.session.id)).toEqual([gone]);
    await clock.advance(1_999);
    expect(profile()?.polls).toBe(2);
    await clock.advance(1);
    await pollsReach(3);
    expect(offline).toEqual([gone]);

    // Nothing left to confirm: the whole interval again, and a listed session is never hurried.
    await clock.advance(4_999);
    expect(profile()?.polls).toBe(3);
    await clock.advance(1);
    await pollsReach(4);
    expect(profile()?.sessions.map((s) => s.id)).toEqual([staying.session]);
    await monitor.close();
  });

  it('hurries no confirmation of a session a restart of ours holds', async () => {
    const restarting = await online('restarting');
    const clock = new FakeClock();
    const monitor = createSessionMonitor({
      clientFor: (_id, onEvent) => testClient(sandbox.url, KEY, onEvent),
      clock,
    });
    const polls = () => monitor.snapshot().profiles[0]?.polls;
    monitor.setProfiles(['a']);
    await clock.advance(0);
    await until(() => polls() === 1, 10_000);
    const held = restarting.session ?? '';
    monitor.expect('a', held, 'restart');
    await restarting.stop();
    await until(async () => !(await listedIds()).includes(held), 10_000);
    await clock.advance(5_000);
    await until(() => polls() === 2, 10_000);
    await clock.advance(2_000);
    expect(polls()).toBe(2);
    await monitor.close();
  });

  it('answers bad calls with clear errors, and a listener that throws hurts no one', async () => {
    expect(() =>
      createSessionMonitor({
        clientFor: () => {
          throw new Error('unused');
        },
        intervalMs: 0,
      }),
    ).toThrow(RangeError);
    const watch = drivenMonitor(sandbox.url, KEY);
    await expect(watch.monitor.pollNow('nope')).rejects.toThrow(
      'The monitor does not watch profile "nope"',
    );
    expect(() => watch.monitor.expect('nope', 'ts_1', 'stop')).toThrow('does not watch');
    watch.monitor.onEvent(() => {
      throw new Error('a listener bug');
    });
    await watch.monitor.pollNow();
    await online('late');
    await watch.monitor.pollNow(PROFILE);
    expect(watch.take()).toMatchObject([{ kind: 'online' }]);
    await watch.monitor.close();
    expect(() => watch.monitor.setProfiles(['x'])).toThrow('The monitor is closed');
  });

  it('waits the settle time on its clock from the update’s 204, and says why the version stayed', async () => {
    const agent = await online('settle');
    const watch = drivenMonitor(sandbox.url, KEY);
    await watch.monitor.pollNow();
    const [session] = watch.sessions();
    if (!session) throw new Error('no session');
    const clock = new FakeClock();
    const progress: ActionEvent['phase'][] = [];
    const actions = createSessionActions({
      client: createApiClient({ baseUrl: sandbox.url, apiKey: KEY, retry: FAST_RETRY }),
      profileId: PROFILE,
      monitor: watch.monitor,
      clock,
      onEvent: (event) => progress.push(event.phase),
    });
    const running = actions.run('update-and-restart', session);
    await until(() => progress.includes('waiting'), 10_000);
    await clock.advance(9_999);
    expect(progress).toEqual(['sent', 'waiting']);
    await clock.advance(1);
    // The agent's own clock is real: restarted at once, it has not settled and keeps 3.1.2.
    // Once it is back under a new session, the find loop's waits are all that is left.
    await until(() => ![undefined, session.id].includes(agent.session), 10_000);
    await clock.runUntil(running);
    expect(await running).toMatchObject({
      ok: true,
      version: { before: '3.1.2', after: '3.1.2' },
      successor: { id: agent.session },
      note: 'The agent restarted but still runs 3.1.2: the update had not settled.',
    });
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'restarted', session: { id: agent.session } }]);
    await watch.monitor.close();
  });
});
