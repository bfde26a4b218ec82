import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TunnelSession } from '../../../shared/api/kinds/tunnel-sessions.ts';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { isAlive, killAll, startAgent, until } from '../../support/agents.ts';
import { expectError } from '../../integration/sandbox/support.ts';

const COMMAND_TIMEOUT_MS = 400;

let sandbox: Sandbox;
let api: (method: string, path: string, body?: unknown) => Promise<ApiReply>;

beforeAll(async () => {
  sandbox = await startSandbox({
    apiKey: 'agents-key',
    rateLimit: 'off',
    agentCommandTimeoutMs: COMMAND_TIMEOUT_MS,
  });
  api = apiCaller(sandbox.url, 'agents-key');
});

afterAll(async () => {
  killAll();
  await sandbox.close();
});

async function credential(acl?: string[]): Promise<{ id: string; token: string }> {
  const reply = await api('POST', '/credentials', acl ? { acl } : {});
  expect(reply.status).toBe(201);
  return { id: reply.body.id, token: reply.body.token };
}

async function listed(id: string): Promise<boolean> {
  const reply = await api('GET', '/tunnel_sessions');
  return reply.body.tunnel_sessions.some((s: { id: string }) => s.id === id);
}

const command = (id: string, name: string) => api('POST', `/tunnel_sessions/${id}/${name}`, {});

function agentArgs(token: string, ...more: string[]): string[] {
  return ['--api-url', sandbox.url, '--authtoken', token, ...more];
}

type Raw = {
  readonly ws: WebSocket;
  readonly messages: Record<string, unknown>[];
  readonly closed: Promise<{ code: number; reason: string }>;
};

/** A hand-driven agent: it says what the test says and answers nothing. */
async function rawAgent(): Promise<Raw> {
  const ws = new WebSocket(sandbox.agentUrl);
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return { ws, messages, closed };
}

function hello(token: string, extra: object = {}) {
  return JSON.stringify({
    type: 'hello',
    authtoken: token,
    version: '3.0.0',
    os: 'linux',
    binds: [],
    update_checks: true,
    ...extra,
  });
}

describe.concurrent('agents over the agent endpoint', () => {
  it('lists a session with the spec fields while the agent runs', async ({ expect }) => {
    const { id: credentialId, token } = await credential(['bind:*.example.com']);
    const agent = startAgent(
      agentArgs(
        token,
        ...['--os', 'darwin', '--version', '3.0.0', '--region', 'eu', '--metadata', 'm1'],
        ...['--bind', 'app.example.com', '--bind', 'api.example.com'],
      ),
    );
    const id = await agent.session(0);
    const got = await api('GET', `/tunnel_sessions/${id}`);
    expect(got.status).toBe(200);
    expect(TunnelSession.safeParse(got.body).success).toBe(true);
    expect(got.body).toEqual({
      id,
      uri: `${sandbox.url}/tunnel_sessions/${id}`,
      agent_version: '3.0.0',
      credential: { id: credentialId, uri: `${sandbox.url}/credentials/${credentialId}` },
      ip: '127.0.0.1',
      metadata: 'm1',
      os: 'darwin',
      region: 'eu',
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      transport: 'service/v2',
    });
    expect(Date.now() - Date.parse(got.body.started_at)).toBeLessThan(30_000);
    const list = await api('GET', '/tunnel_sessions?limit=100');
    expect(list.body.tunnel_sessions).toContainEqual(got.body);
    expect(agent.pids).toEqual([agent.child.pid]);
    agent.child.kill('SIGTERM');
    expect((await agent.exit).code).toBe(0);
    await until(async () => !(await listed(id)), 10_000);
  });

  it('refuses a bad authtoken and a bind outside the ACL, exit 1, no session', async ({
    expect,
  }) => {
    const bad = startAgent(agentArgs('not-a-token'));
    const { id, token } = await credential(['bind:*.example.com', 'bind:env=prod']);
    const outside = startAgent(agentArgs(token, '--bind', 'a.example.com', '--bind', 'evil.org'));
    expect((await bad.exit).code).toBe(1);
    expect(bad.stderr()).toContain('agent: refused: the authtoken is not valid');
    expect((await outside.exit).code).toBe(1);
    expect(outside.stderr()).toContain(
      `agent: refused: bind "evil.org" is not permitted by the ACL of credential ${id} (bind:*.example.com, bind:env=prod)`,
    );
    expect(bad.sessions.length + outside.sessions.length).toBe(0);
  });

  it('restart replaces the process: a new session id, the old one gone', async ({ expect }) => {
    const { token } = await credential();
    const agent = startAgent(agentArgs(token, '--os', 'linux', '--metadata', 'keep me'));
    const first = await agent.session(0);
    expect(await command(first, 'restart')).toMatchObject({ status: 204 });
    const second = await agent.session(1);
    expect(second).not.toBe(first);
    expect((await agent.exit).code).toBe(0);
    expect(await listed(first)).toBe(false);
    const session = (await api('GET', `/tunnel_sessions/${second}`)).body;
    expect(session).toMatchObject({ metadata: 'keep me', os: 'linux', agent_version: '3.1.2' });
    // The successor is another process, found by the pid it printed; stop ends it.
    const successor = agent.pids[1] ?? 0;
    expect(successor).not.toBe(agent.child.pid);
    expect(isAlive(successor)).toBe(true);
    expect(await command(second, 'stop')).toMatchObject({ status: 204 });
    await until(() => !isAlive(successor), 10_000);
    await until(async () => !(await listed(second)), 10_000);
  });

  it('refuses restart on Windows (330) and update without a newer release (332) or with checks off (333)', async () => {
    const { token } = await credential();
    const windows = startAgent(agentArgs(token, '--os', 'windows', '--version', '3.3.0'));
    const noChecks = startAgent(agentArgs(token, '--version', '2.9.0', '--no-update-check'));
    const [w, n] = await Promise.all([windows.session(0), noChecks.session(0)]);
    expectError(await command(w, 'restart'), 'restartUnsupportedOnWindows');
    expectError(await command(w, 'update'), 'noUpdateAvailable');
    expectError(await command(n, 'update'), 'updateChecksDisabled');
    expect(await listed(w)).toBe(true);
    windows.child.kill('SIGINT');
    noChecks.child.kill('SIGTERM');
    expect([(await windows.exit).code, (await noChecks.exit).code]).toEqual([0, 0]);
  });

  it('stop makes the agent exit 0 and its session disappear', async ({ expect }) => {
    const { token } = await credential();
    const agent = startAgent(agentArgs(token));
    const id = await agent.session(0);
    expect(await command(id, 'stop')).toMatchObject({ status: 204 });
    expect((await agent.exit).code).toBe(0);
    await agent.said('stopped by command');
    await until(async () => !(await listed(id)), 10_000);
    expectError(await command(id, 'stop'), 'notFound');
  });

  // The session goes when its connection closes, not on a timer: the 10 s is only a backstop,
  // and shorter than the sandbox's 15 s heartbeat, which would otherwise drop it anyway.
  it('drops the session of a SIGKILLed agent when its connection closes', async () => {
    const { token } = await credential();
    const agent = startAgent(agentArgs(token));
    const id = await agent.session(0);
    agent.child.kill('SIGKILL');
    await until(async () => !(await listed(id)), 10_000);
    expectError(await api('GET', `/tunnel_sessions/${id}`), 'notFound');
  });

  it('answers 504 when the agent does not answer a command in time', async ({ expect }) => {
    const { token } = await credential();
    const raw = await rawAgent();
    raw.ws.send(hello(token, { region: 'au' }));
    await until(() => raw.messages.length > 0, 10_000);
    const online = raw.messages[0] as { type: string; session_id: string; releases: string[] };
    expect(online).toMatchObject({ type: 'online', releases: expect.arrayContaining(['3.3.0']) });
    const started = performance.now();
    expectError(await command(online.session_id, 'restart'), 'agentTimeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 50);
    expect(raw.messages[1]).toEqual({ type: 'command', seq: 0, name: 'restart' });
    // A late answer is dropped; the session stays, as the connection does.
    raw.ws.send(JSON.stringify({ type: 'result', seq: 0, ok: true }));
    expect((await api('GET', `/tunnel_sessions/${online.session_id}`)).body.region).toBe('au');
    raw.ws.close();
    await raw.closed;
    await until(async () => !(await listed(online.session_id)), 10_000);
  });

  it('closes connections that break the protocol, with a reason, and keeps serving', async ({
    expect,
  }) => {
    const { token } = await credential();
    const cases: [string, (raw: Raw) => void, RegExp][] = [
      ['not JSON', (r) => r.ws.send('{nope'), /not JSON/],
      ['binary', (r) => r.ws.send(Buffer.from([1, 2, 3])), /binary/],
      ['unknown type', (r) => r.ws.send('{"type":"hi"}'), /invalid message/],
      ['result first', (r) => r.ws.send('{"type":"result","seq":0,"ok":true}'), /first message/],
      ['bad version', (r) => r.ws.send(hello(token, { version: '3.x' })), /version: must be/],
      ['two hellos', (r) => (r.ws.send(hello(token)), r.ws.send(hello(token))), /only one hello/],
      [
        'inconsistent result',
        (r) => (r.ws.send(hello(token)), r.ws.send('{"type":"result","seq":0,"ok":false}')),
        /ok exactly when/,
      ],
    ];
    for (const [name, act, reason] of cases) {
      const raw = await rawAgent();
      act(raw);
      const closed = await raw.closed;
      expect({ name, code: closed.code }).toEqual({ name, code: 4002 });
      expect(closed.reason, name).toMatch(reason);
    }
    expect((await api('GET', '/tunnel_sessions')).status).toBe(200);
    const refused = await rawAgent();
    refused.ws.send(hello('wrong'));
    expect(await refused.closed).toMatchObject({ code: 4001 });
    expect(refused.messages).toEqual([
      { type: 'refused', code: 'authtokenInvalid', message: expect.stringContaining('authtoken') },
    ]);
  });

  it('disconnects the sessions of a deleted credential', async ({ expect }) => {
    const { id, token } = await credential();
    const raw = await rawAgent();
    raw.ws.send(hello(token));
    await until(() => raw.messages.length > 0, 10_000);
    const sessionId = (raw.messages[0] as { session_id: string }).session_id;
    expect((await api('DELETE', `/credentials/${id}`)).status).toBe(204);
    expect(await raw.closed).toMatchObject({ code: 4001 });
    expect(raw.messages[1]).toMatchObject({ type: 'refused', code: 'credentialDeleted' });
    expect(await listed(sessionId)).toBe(false);
  });

  it('reconnects with a new session when the sandbox comes back', async ({ expect }) => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'burrow-agents-')), 'state.json');
    const first = await startSandbox({ apiKey: 'k2', rateLimit: 'off', dataFile });
    const port = Number(new URL(first.url).port);
    const token = (await apiCaller(first.url, 'k2')('POST', '/credentials', {})).body.token;
    const agent = startAgent(['--api-url', first.url, '--authtoken', token]);
    const before = await agent.session(0);
    await first.close();
    const second = await startSandbox({ apiKey: 'k2', rateLimit: 'off', dataFile, port });
    try {
      const after = await agent.session(1);
      expect(after).not.toBe(before);
      expect(agent.stderr()).toMatch(/the sandbox is shutting down \(1001\); reconnecting in/);
      const listed = (await apiCaller(second.url, 'k2')('GET', '/tunnel_sessions')).body;
      expect(listed.tunnel_sessions.map((s: { id: string }) => s.id)).toEqual([after]);
      expect(agent.pids).toHaveLength(1);
    } finally {
      agent.child.kill('SIGKILL');
      await second.close();
    }
  });

  it('answers other upgrade paths 404', async ({ expect }) => {
    const ws = new WebSocket(sandbox.agentUrl.replace('/_agent/v2', '/_agent/v1'));
    const status = await new Promise<number | undefined>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      ws.on('error', () => resolve(undefined));
    });
    expect(status).toBe(404);
  });

  it('refuses bad arguments with one line and the usage, exit 2', async ({ expect }) => {
    const runs = [
      startAgent(['--authtoken', 't']),
      startAgent(agentArgs('t', '--version', '3.1')),
      startAgent(agentArgs('t', '--os', 'plan9')),
      startAgent(agentArgs('t', '--bogus')),
    ];
    const stderr = await Promise.all(runs.map(async (r) => ((await r.exit).code, r.stderr())));
    for (const run of runs) expect((await run.exit).code).toBe(2);
    expect(stderr.map((text) => text.split('\n')[0])).toEqual([
      'agent: --api-url is required',
      'agent: --version "3.1" is invalid: must be a version X.Y.Z of plain decimal numbers',
      'agent: --os "plan9" is invalid: one of linux, darwin, windows',
      expect.stringMatching(/^agent: Unknown option '--bogus'/),
    ]);
    for (const text of stderr) expect(text.split('\n')[1]).toMatch(/^usage: npm run agent/);
  });
});
