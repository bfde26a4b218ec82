/**
 * The monitor and the session actions against the sandbox with real agents: `npm run agent`
 * processes and the real OpenSSH client. Polls are driven by the test (pollNow), so each
 * assertion is about what one poll saw, never about timing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../core/api/errors.ts';
import { createSessionActions } from '../../../../core/sessions/actions.ts';
import type { ActionEvent } from '../../../../shared/app/sessions/actions.ts';
import { availability } from '../../../../shared/app/sessions/rules.ts';
import { startSandbox, type Sandbox } from '../../../../sandbox/index.ts';
import { makeKeyPair, removeDir, tempDir } from '../../../support/openssh.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { sshTunnel } from '../../../support/ssh-tunnel.ts';
import { killAll, startAgent, until } from '../../../support/agents.ts';
import { drivenMonitor, PROFILE, testClient } from '../../../integration/core/monitor/support.ts';

const KEY = 'monitor-agents-key';
let sandbox: Sandbox;
let api: ReturnType<typeof apiCaller>;
let token = '';
let dir = '';
const ssh = { key: '' };

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, rateLimit: 'off', sshPort: 0 });
  api = apiCaller(sandbox.url, KEY);
  token = (await api('POST', '/credentials', {})).body.token;
  dir = await tempDir('burrow-monitor-');
  const pair = await makeKeyPair(dir, 'agent');
  ssh.key = pair.privatePath;
  expect((await api('POST', '/ssh_credentials', { public_key: pair.publicKey })).status).toBe(201);
});

const listedCount = async () => (await api('GET', '/tunnel_sessions')).body.tunnel_sessions.length;

afterEach(async () => {
  killAll();
  // The next test starts its own monitor quietly: nothing of this one may leave later.
  await until(async () => (await listedCount()) === 0, 10_000);
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
  if (dir) await removeDir(dir);
});

const agent = (...args: string[]) =>
  startAgent(['--api-url', sandbox.url, '--authtoken', token, '--os', 'linux', ...args]);

/** A monitor that has seen `ids` at its quiet start, actions wired to it, and the session. */
async function watching(sessionId: string, settleMs?: number) {
  const watch = drivenMonitor(sandbox.url, KEY);
  await watch.monitor.pollNow();
  expect(watch.take()).toEqual([]);
  const session = watch.sessions().find((s) => s.id === sessionId);
  if (!session) throw new Error(`${sessionId} is not listed`);
  const progress: ActionEvent[] = [];
  const actions = createSessionActions({
    client: testClient(sandbox.url, KEY),
    profileId: PROFILE,
    monitor: watch.monitor,
    onEvent: (event) => progress.push(event),
    ...(settleMs !== undefined && { settleMs }),
  });
  return { ...watch, session, actions, progress };
}

describe('the session monitor with real agents', () => {
  it('says online, then offline only at the second poll that misses an agent killed with -9', async () => {
    const watch = drivenMonitor(sandbox.url, KEY);
    await watch.monitor.pollNow();
    const process_ = agent();
    const id = await process_.session(0);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'online', profileId: PROFILE, session: { id } }]);

    process_.child.kill('SIGKILL');
    await until(async () => (await listedCount()) === 0, 10_000);
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    expect(watch.sessions()).toEqual([]);
    await watch.monitor.pollNow();
    const [offline, ...rest] = watch.take();
    expect(rest).toEqual([]);
    expect(offline).toMatchObject({ kind: 'offline', sessions: [{ id }] });
    await watch.monitor.close();
  });

  it('says stopped, not offline, after our own stop, and the agent exits', async () => {
    const process_ = agent();
    const watch = await watching(await process_.session(0));
    const result = await watch.actions.run('stop', watch.session);
    expect(result).toEqual({
      ok: true,
      action: 'stop',
      profileId: PROFILE,
      sessionId: watch.session.id,
    });
    expect((await process_.exit).code).toBe(0);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'stopped', session: { id: watch.session.id } }]);
    expect(await watch.actions.run('stop', watch.session)).toMatchObject({
      ok: false,
      step: 'stop',
      reason: 'The session has ended: the agent is no longer online.',
      errorCode: 'ERR_SERVICE_301',
      operationId: expect.stringMatching(/^op_/),
    });
    await watch.monitor.close();
  });

  it('says restarted when the agent comes back with a new session id', async () => {
    const process_ = agent('--metadata', 'restart me');
    const watch = await watching(await process_.session(0));
    expect((await watch.actions.run('restart', watch.session)).ok).toBe(true);
    // A poll between the old process leaving and its successor arriving only counts a miss.
    await watch.monitor.pollNow();
    const next = await process_.session(1);
    await watch.monitor.pollNow();
    const events = watch.take();
    expect(events).toMatchObject([
      {
        kind: 'restarted',
        session: { id: next, metadata: 'restart me' },
        previous: { id: watch.session.id },
      },
    ]);
    await watch.monitor.pollNow();
    expect(watch.take()).toEqual([]);
    await watch.monitor.close();
  });

  it('updates, waits, restarts and reports the new version; the monitor says updated', async () => {
    // 10 s after the update's 204 plus the sandbox's 1.5 s download, so that the test holds
    // whether the sandbox counts the wait from the 204 or from the download's end.
    const process_ = agent('--version', '3.1.2');
    const watch = await watching(await process_.session(0), 11_600);
    const result = await watch.actions.run('update-and-restart', watch.session);
    expect(result).toMatchObject({ ok: true, version: { before: '3.1.2', after: '3.3.0' } });
    // The actions can find the new session through the API before its agent's line saying so
    // is read here: wait for that line, not for the array to have it.
    expect(result.ok && result.successor?.id).toBe(await process_.session(1));
    expect(watch.progress.map((e) => (e.phase === 'sent' ? e.command : e.phase))).toEqual([
      'update',
      'waiting',
      'restart',
      'finding',
      'done',
    ]);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([
      {
        kind: 'updated',
        session: { agent_version: '3.3.0' },
        previous: { agent_version: '3.1.2' },
      },
    ]);
    await watch.monitor.close();
  }, 40_000);

  it('refuses restart on a Windows agent before the call, as the service would', async () => {
    const process_ = agent('--os', 'windows');
    const watch = await watching(await process_.session(0));
    expect(availability(watch.session, 'restart')).toMatchObject({ allowed: false });
    for (const action of ['restart', 'update-and-restart'] as const)
      expect(await watch.actions.run(action, watch.session)).toEqual({
        ok: false,
        action,
        profileId: PROFILE,
        sessionId: watch.session.id,
        step: 'check',
        reason: 'Restart is not supported on Windows agents.',
        errorCode: 'ERR_SERVICE_330',
        operationId: null,
      });
    const direct = await testClient(sandbox.url, KEY)
      .tunnelSessions.restart(watch.session.id, {})
      .catch((error: unknown) => error);
    expect(direct).toBeInstanceOf(ApiError);
    expect((direct as ApiError).errorCode).toBe('ERR_SERVICE_330');
    await watch.monitor.close();
  });

  it('maps the four update failures to plain reasons with their code and operation id', async () => {
    const newest = agent('--version', '3.3.0', '--metadata', 'newest');
    const noChecks = agent('--no-update-check', '--metadata', 'no checks');
    const busy = agent('--metadata', 'busy');
    const ids = await Promise.all([newest.session(0), noChecks.session(0), busy.session(0)]);
    const watch = await watching(ids[0] ?? '');
    const byId = (id: string | undefined) =>
      watch.sessions().find((s) => s.id === id) ?? watch.session;
    const update = (id: string | undefined) => watch.actions.run('update', byId(id));
    const failure = (reason: string, errorCode: string) => ({
      ok: false,
      step: 'update',
      reason,
      errorCode,
      operationId: expect.stringMatching(/^op_/),
    });
    expect(await update(ids[0])).toMatchObject(
      failure("No newer version of this agent's major version is available.", 'ERR_SERVICE_332'),
    );
    expect(await update(ids[1])).toMatchObject(
      failure("The agent's configuration turns update checks off.", 'ERR_SERVICE_333'),
    );
    expect(await update(ids[2])).toMatchObject({ ok: true });
    expect(await update(ids[2])).toMatchObject(
      failure('The agent is already updating.', 'ERR_SERVICE_334'),
    );
    const awaitingRestart = async () => {
      const result = await update(ids[2]);
      return !result.ok && result.errorCode === 'ERR_SERVICE_335';
    };
    // The download takes the agent 1.5 s; until then it answers "already updating".
    await until(awaitingRestart, 10_000);
    expect(await update(ids[2])).toMatchObject(
      failure(
        'The agent has already updated; restart it to run the new version.',
        'ERR_SERVICE_335',
      ),
    );
    await watch.monitor.close();
  });

  it('follows an SSH-transport session: online, commands it cannot carry out refused, stopped', async () => {
    const watch = drivenMonitor(sandbox.url, KEY);
    await watch.monitor.pollNow();
    const client = sshTunnel(ssh.key, { port: sandbox.sshPort ?? 0, forward: '0:localhost:8080' });
    await client.output('Forwarding tcp://');
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'online', session: { transport: 'ssh' } }]);
    const [session] = watch.sessions();
    if (!session) throw new Error('the SSH session is not listed');
    const actions = createSessionActions({
      client: testClient(sandbox.url, KEY),
      profileId: PROFILE,
      monitor: watch.monitor,
    });
    for (const action of ['restart', 'update', 'update-and-restart'] as const)
      expect(await actions.run(action, session)).toMatchObject({
        ok: false,
        step: 'check',
        errorCode: 'ERR_SERVICE_331',
      });
    expect((await actions.run('stop', session)).ok).toBe(true);
    expect((await client.exited).code).toBe(0);
    await watch.monitor.pollNow();
    expect(watch.take()).toMatchObject([{ kind: 'stopped', session: { id: session.id } }]);
    await watch.monitor.close();
  });
});
