/**
 * Agents above their sessions with real agents (`npm run agent` processes) against the sandbox:
 * the states a kill, our own commands, an outage and a flapping API walk an agent through.
 * Polls are the test's (pollNow), so each assertion is about what one poll saw.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UPDATE_READY } from '../../../../core/agents/entry.ts';
import type { AgentState } from '../../../../shared/app/agents.ts';
import type { Sandbox } from '../../../../sandbox/index.ts';
import { killAll, startAgent, until } from '../../../support/agents.ts';
import { removeDir, tempDir } from '../../../support/openssh.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { sandboxKeyedTo } from '../../../integration/core/api/support.ts';
import { freePort } from '../../../support/free-port.ts';
import { watchingAgents, type Watching } from '../../../integration/core/agents/support.ts';

const KEY = 'agents-states-key';
let dir = '';
let port = 0;
let sandbox: Sandbox | undefined;
let token = '';
const open: Watching[] = [];

/** The sandbox on one port and data file, `apiKey` its one user's only key. */
async function start(apiKey = KEY): Promise<Sandbox> {
  sandbox = await sandboxKeyedTo(apiKey, port, path.join(dir, 'state.json'));
  return sandbox;
}

const url = () => sandbox?.url ?? '';
const listed = async () =>
  JSON.stringify((await apiCaller(url(), KEY)('GET', '/tunnel_sessions')).body);

beforeAll(async () => {
  dir = await tempDir('burrow-agents-states-');
  port = await freePort();
  await start();
  token = (await apiCaller(url(), KEY)('POST', '/credentials', {})).body.token;
});

afterEach(async () => {
  sandbox?.faults.clear();
  await Promise.all(open.splice(0).map((w) => w.close()));
  killAll();
  await until(async () => !(await listed()).includes('ts_'), 10_000);
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
  if (dir) await removeDir(dir);
});

const agent = (name: string, ...args: string[]) =>
  startAgent(['--api-url', url(), '--authtoken', token, '--metadata', name, ...args]);

/** The agents service, after its first (quiet) poll has seen these agents (name, args) connected. */
async function watching(...specs: [string, ...string[]][]) {
  const processes = specs.map((spec) => agent(...spec));
  const ids = await Promise.all(processes.map((p) => p.session(0)));
  const w = await watchingAgents(url(), KEY);
  open.push(w);
  await w.watch.monitor.pollNow();
  /** Each progress event's phase, and the agent's state and step as it was told. */
  const seen: [string, AgentState, string | null][] = [];
  w.progress.subscribe((event) => {
    const now = w.list().find((a) => a.session.id === event.sessionId);
    const phase = event.phase === 'sent' ? event.command : event.phase;
    if (now) seen.push([phase, now.state, now.step?.name ?? null]);
  });
  return { ...w, processes, ids, seen };
}

describe('an agent’s states with real agents', () => {
  it('is lost at the first poll after kill -9 and offline at the second, last seen kept', async () => {
    const w = await watching(['killed']);
    const before = w.agent('killed');
    expect(before).toMatchObject({ state: 'online', session: { id: w.ids[0] } });
    const seenAt = before.lastSeenAt;

    w.processes[0]?.child.kill('SIGKILL');
    await until(async () => !(await listed()).includes(w.ids[0] ?? '-'), 10_000);
    await w.watch.monitor.pollNow();
    expect(w.agent('killed')).toMatchObject({ state: 'lost', lastSeenAt: seenAt });
    await w.watch.monitor.pollNow();
    const gone = w.agent('killed');
    expect(gone).toMatchObject({
      state: 'offline',
      lastSeenAt: seenAt,
      session: { id: w.ids[0], agent_version: before.session.agent_version, ip: '127.0.0.1' },
      history: { marks: [{ kind: 'offline' }] },
    });
    expect(gone.history.bands.map((b) => [b.state, b.to === null])).toEqual([
      ['online', false],
      ['offline', true],
    ]);
    // Still listed, first, until dismissed.
    await w.watch.monitor.pollNow();
    expect(w.list()[0]?.id).toBe(gone.id);
    expect(w.agents.dismiss(gone.profileId, gone.id).profiles[0]?.agents).toEqual([]);
  });

  it('is stopping from the click (before the API answers) until the poll that misses it', async () => {
    const w = await watching(['stop me']);
    const result = await w.actions.run('stop', w.session(w.ids[0] ?? ''));
    expect(result.ok).toBe(true);
    expect(w.seen).toEqual([
      ['stop', 'stopping', null],
      ['done', 'stopping', null],
    ]);
    await w.processes[0]?.exit;
    await w.watch.monitor.pollNow();
    expect(w.agent('stop me')).toMatchObject({
      state: 'stopped',
      history: { marks: [{ kind: 'stopped' }] },
    });
  });

  it('is restarting, never lost, until its new session takes its place', async () => {
    const w = await watching(['restart me']);
    const id = w.agent('restart me').id;
    expect((await w.actions.run('restart', w.session(w.ids[0] ?? ''))).ok).toBe(true);
    await until(async () => !(await listed()).includes(w.ids[0] ?? '-'), 10_000);
    await w.watch.monitor.pollNow();
    expect(w.agent('restart me').state).toBe('restarting');
    const next = await w.processes[0]?.session(1, 20_000);
    await w.watch.monitor.pollNow();
    expect(w.agent('restart me')).toMatchObject({
      id,
      state: 'online',
      session: { id: next },
      note: `restarted · new session ${next}`,
      history: { marks: [{ kind: 'restarted', detail: `new session ${next}` }] },
    });
    expect(w.list()).toHaveLength(1);
  });

  it('is update-ready after an update, Update blocked until a new session; 333 blocks it too', async () => {
    const w = await watching(['update me'], ['no checks', '--no-update-check']);
    const noChecksId = w.ids[1] ?? '';

    const updated = await w.actions.run('update', w.session(w.ids[0] ?? ''));
    expect(updated.ok).toBe(true);
    expect(w.seen).toEqual([
      ['update', 'updating', null],
      ['done', 'update-ready', null],
    ]);
    expect(w.agent('update me')).toMatchObject({
      state: 'update-ready',
      updateBlocked: UPDATE_READY,
      note: 'updated · restart to apply',
    });
    // The agent answers 334 while it downloads, then 335: it stays update-ready.
    await until(async () => {
      const again = await w.actions.run('update', w.session(w.ids[0] ?? ''));
      return !again.ok && again.errorCode === 'ERR_SERVICE_335';
    }, 10_000);
    expect(w.agent('update me')).toMatchObject({
      state: 'update-ready',
      updateBlocked: UPDATE_READY,
    });

    const refused = await w.actions.run('update', w.session(noChecksId));
    expect(refused).toMatchObject({ ok: false, errorCode: 'ERR_SERVICE_333' });
    expect(w.agent('no checks')).toMatchObject({
      state: 'online',
      updateBlocked: "The agent's configuration turns update checks off.",
    });
    // Remembered across polls, until the agent has a new session (it may be configured anew).
    await w.watch.monitor.pollNow();
    expect(w.agent('no checks').updateBlocked).not.toBeNull();
    expect((await w.actions.run('restart', w.session(noChecksId))).ok).toBe(true);
    await w.processes[1]?.session(1, 20_000);
    await until(async () => {
      await w.watch.monitor.pollNow();
      return w.agent('no checks').state === 'online';
    }, 20_000);
    expect(w.agent('no checks').updateBlocked).toBeNull();
  });

  it('walks update-and-restart’s steps: updating, waiting until, restarting, then updated', async () => {
    const processes = [agent('upgrade me', '--version', '3.1.2')];
    const first = await processes[0]?.session(0);
    const w = await watchingAgents(url(), KEY, { settleMs: 11_600 });
    open.push(w);
    await w.watch.monitor.pollNow();
    const steps: [string, AgentState, string | null, number | null, number][] = [];
    w.progress.subscribe((event) => {
      const now = w.agent('upgrade me');
      steps.push([
        event.phase === 'sent' ? event.command : event.phase,
        now.state,
        now.step?.name ?? null,
        now.step?.until ?? null,
        Date.now(),
      ]);
    });
    const result = await w.actions.run('update-and-restart', w.session(first ?? ''));
    expect(result).toMatchObject({ ok: true, version: { before: '3.1.2', after: '3.3.0' } });
    expect(steps.map(([phase, state, step]) => [phase, state, step])).toEqual([
      ['update', 'updating', 'updating'],
      ['waiting', 'updating', 'waiting'],
      ['restart', 'restarting', 'restarting'],
      ['finding', 'restarting', 'restarting'],
      ['done', 'online', null],
    ]);
    // The wait is counted from when it begins, whatever the update's answer took: `until` is
    // the settle time after the moment the waiting step was told (the same turn, so within a
    // clock tick or two of it).
    const [, , , until_, toldAt] = steps[1] ?? [];
    expect((until_ ?? 0) - (toldAt ?? 0)).toBeGreaterThan(11_500);
    expect((until_ ?? 0) - (toldAt ?? 0)).toBeLessThanOrEqual(11_600);
    // The monitor may find the new session through the API before the agent's line saying it
    // is read here: wait for that line, not for the array to have it.
    const second = await processes[0]?.session(1);
    expect(w.agent('upgrade me')).toMatchObject({
      state: 'online',
      note: 'updated 3.1.2 → 3.3.0',
      session: { agent_version: '3.3.0', id: second },
      updateBlocked: null,
    });
    // The monitor's own `updated` event adds no second mark.
    await w.watch.monitor.pollNow();
    expect(w.agent('upgrade me').history.marks).toMatchObject([
      { kind: 'updated', detail: '3.1.2 → 3.3.0' },
    ]);
  }, 40_000);

  it('is never offline through a restart of the API, a revoked key, or a sleep', async () => {
    const w = await watching(['steady']);
    const states = new Set<AgentState>();
    w.agents.onChange((snapshot) =>
      snapshot.profiles[0]?.agents.forEach((a) => states.add(a.state)),
    );
    await sandbox?.close();
    await w.watch.monitor.pollNow();
    await w.watch.monitor.pollNow();
    await start();
    const reconnected = await w.processes[0]?.session(1, 20_000);
    for (let i = 0; i < 3; i++) await w.watch.monitor.pollNow();
    await w.watch.clock.advance(30_000);
    await w.watch.monitor.pollNow();
    expect(w.agent('steady')).toMatchObject({ state: 'online', session: { id: reconnected } });

    // Asleep and awake: the first poll after is a quiet one.
    w.watch.monitor.pause();
    w.watch.monitor.resume();
    for (let i = 0; i < 3; i++) await w.watch.monitor.pollNow();
    await w.watch.clock.advance(30_000);
    await w.watch.monitor.pollNow();
    expect(w.agent('steady')).toMatchObject({ state: 'online', session: { id: reconnected } });

    // The key revoked: polls fail, nothing is said of the agent.
    await sandbox?.close();
    await start('another-key');
    for (let i = 0; i < 3; i++) await w.watch.monitor.pollNow();
    expect(w.agent('steady').state).toBe('online');
    await sandbox?.close();
    await start();
    expect([...states].filter((s) => s === 'offline' || s === 'lost')).toEqual([]);
    expect(w.list()).toHaveLength(1);
  }, 60_000);

  it('confirms offline in bounded polls while the API drops some of them', async () => {
    const w = await watching(['kept'], ['gone']);
    w.processes[1]?.child.kill('SIGKILL');
    await until(async () => !(await listed()).includes(w.ids[1] ?? '-'), 10_000);
    // Two in a row of every four polls lost.
    for (let i = 1; w.agent('gone').state !== 'offline'; i++) {
      expect(i).toBeLessThanOrEqual(20);
      if (i % 4 < 2)
        sandbox?.faults.add({ kind: 'drop', pathPrefix: '/tunnel_sessions', count: 1 });
      await w.watch.clock.advance(5_000);
      await w.watch.monitor.pollNow();
    }
    expect(w.agent('kept').state).toBe('online');
    expect(w.agent('gone').history.marks).toMatchObject([{ kind: 'offline' }]);
    expect(w.list()).toHaveLength(2);
  }, 30_000);
});
