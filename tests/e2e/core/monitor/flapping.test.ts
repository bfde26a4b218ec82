/**
 * An API that drops polls while its health stays ok (a flaky proxy, a load balancer losing one
 * request in three): the real sandbox's `drop` fault on the sessions list, the monitor's clock
 * moved by the test. A gone agent is still said offline in bounded time; one that stays is never.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../../sandbox/index.ts';
import type { MonitorEvent } from '../../../../shared/app/monitor.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { killAll, startAgent, until } from '../../../support/agents.ts';
import { drivenMonitor } from '../../../integration/core/monitor/support.ts';

const KEY = 'monitor-flapping-key';
const INTERVAL = 15_000;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, rateLimit: 'off' });
});
afterAll(async () => {
  killAll();
  await sandbox?.close();
});

/** Polls every 15 s of the monitor's clock; `drops(i)` says which polls the API loses. */
async function flap(
  watch: ReturnType<typeof drivenMonitor>,
  polls: number,
  drops: (i: number) => boolean,
) {
  const events: MonitorEvent[] = [];
  for (let i = 1; i <= polls; i++) {
    if (drops(i)) sandbox.faults.add({ kind: 'drop', pathPrefix: '/tunnel_sessions', count: 1 });
    await watch.clock.advance(INTERVAL);
    await watch.monitor.pollNow();
    events.push(...watch.take());
  }
  return events;
}

async function twoAgents() {
  const token = (await apiCaller(sandbox.url, KEY)('POST', '/credentials', {})).body.token;
  const agent = (name: string) =>
    startAgent(['--api-url', sandbox.url, '--authtoken', token, '--metadata', name]);
  const kept = agent('kept');
  const gone = agent('gone');
  const [keptId, goneId] = await Promise.all([kept.session(0), gone.session(0)]);
  // Its own timers never fire within the test's moves: every poll is the test's.
  const watch = drivenMonitor(sandbox.url, KEY, { intervalMs: 3_600_000 });
  await watch.monitor.pollNow();
  expect(
    watch
      .sessions()
      .map((s) => s.id)
      .sort(),
  ).toEqual([keptId, goneId].sort());
  gone.child.kill('SIGKILL');
  await until(async () => {
    const listed = await apiCaller(sandbox.url, KEY)('GET', '/tunnel_sessions');
    return !JSON.stringify(listed.body).includes(goneId);
  }, 10_000);
  return { watch, keptId, goneId };
}

describe('the monitor under an API that drops polls', () => {
  it('says a gone agent offline within two minutes when one poll in three is lost', async () => {
    const { watch, goneId } = await twoAgents();
    // The first poll after the agent went is lost already: the flapping began before.
    const events = await flap(watch, 8, (i) => i % 3 === 1);
    expect(events.filter((e) => e.kind !== 'unreachable' && e.kind !== 'recovered')).toEqual([
      expect.objectContaining({
        kind: 'offline',
        sessions: [expect.objectContaining({ id: goneId })],
      }),
    ]);
    // The lost polls were blips: the health never changed, and nothing more is said.
    expect(events.map((e) => e.kind)).toEqual(['offline']);
    expect(await flap(watch, 9, (i) => i % 3 === 1)).toEqual([]);
    expect(watch.health()).toBe('ok');
    await watch.monitor.close();
    killAll();
  });

  it('still says it when two polls in a row of every four are lost, and never the one that stays', async () => {
    const { watch, keptId, goneId } = await twoAgents();
    const events = await flap(watch, 24, (i) => i % 4 === 1 || i % 4 === 2);
    const offline = events.filter((e) => e.kind === 'offline');
    expect(offline).toEqual([
      expect.objectContaining({ sessions: [expect.objectContaining({ id: goneId })] }),
    ]);
    expect(JSON.stringify(offline)).not.toContain(keptId);
    expect(events.some((e) => e.kind === 'restarted' || e.kind === 'online')).toBe(false);
    expect(watch.sessions().map((s) => s.id)).toEqual([keptId]);
    await watch.monitor.close();
    killAll();
  });
});
