import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../sandbox/agent/agent.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { startSandbox, type Sandbox } from '../core/api/support.ts';
import { burrow, oneLine } from './support.ts';

type Listed = { agent: string | null; id: string; region: string; agent_version: string };

let sandbox: Sandbox;

const run = (...argv: string[]) =>
  burrow([...argv, '--api-url', sandbox.url], { env: { BURROW_API_KEY: sandbox.apiKey } });

async function listed(): Promise<Listed[]> {
  const result = await run('sessions', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

/** A real agent on a credential of its own, its metadata naming it `host`; started, not yet online. */
async function agentNamed(host: string, os: 'linux' | 'windows' = 'linux'): Promise<Agent> {
  const { token } = (await apiCaller(sandbox.url, sandbox.apiKey ?? '')('POST', '/credentials', {}))
    .body as { token: string };
  return new Agent({
    url: sandbox.agentUrl,
    authtoken: token,
    version: '3.1.2',
    os,
    metadata: JSON.stringify({ host }),
  }).start();
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'cli-sessions', rateLimit: 'off', demo: true });
});

afterAll(() => sandbox.close());

describe('burrow sessions and the session commands', () => {
  it('lists sessions as JSON with agent names, and as a table', async () => {
    const sessions = await listed();
    expect(sessions.map((s) => s.agent).sort()).toEqual(['build-box', 'laptop', 'office-pc']);
    expect(sessions.find((s) => s.agent === 'build-box')).toMatchObject({
      region: 'us',
      agent_version: '3.1.2',
    });
    const table = await run('sessions');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^AGENT\s+SESSION\s+REGION\s+VERSION\s+OS\s+STARTED\n/);
    // Started in words, as the window says it, not as an RFC 3339 time.
    expect(table.stdout).toMatch(
      /^build-box\s+ts_\S+\s+us\s+3\.1\.2\s+linux\s+(now|\d+ (seconds?|minutes?) ago)\n/m,
    );
    expect(table.stdout).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });

  it('restarts by agent name; the agent comes back with a new session', async () => {
    const before = (await listed()).find((s) => s.agent === 'build-box');
    const result = await run('restart', 'build-box');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`build-box (${before?.id})`);
    await expect
      .poll(async () => (await listed()).find((s) => s.agent === 'build-box')?.id, {
        timeout: 15_000,
      })
      .not.toBe(before?.id);
  });

  it('--watch: a line as a session goes and one as it comes, until stopped (exit 0)', async () => {
    const before = (await listed()).find((s) => s.agent === 'build-box');
    const stop = new AbortController();
    let lines: { event: string; session: { id: string; agent: string } }[] = [];
    const watching = burrow(
      ['sessions', '--watch', '--interval', '2', '--json', '--api-url', sandbox.url],
      {
        env: { BURROW_API_KEY: sandbox.apiKey },
        signal: stop.signal,
        onStdout: (all) => {
          lines = all
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as (typeof lines)[number]);
        },
      },
    );
    await expect.poll(() => lines.length).toBe(3);
    expect(lines.every((l) => l.event === 'online')).toBe(true);
    expect((await run('restart', 'build-box')).code).toBe(0);
    await expect
      .poll(
        () =>
          lines
            .slice(3)
            .map((l) => `${l.event} ${l.session.agent}`)
            .sort(),
        {
          timeout: 20_000,
        },
      )
      .toEqual(['gone build-box', 'online build-box']);
    expect(lines.find((l) => l.event === 'gone')?.session.id).toBe(before?.id);
    stop.abort();
    expect(await watching).toMatchObject({ code: 0, stderr: '' });
  });

  it("a rule's refusal and the service's: one line with the reason and code, exit 1", async () => {
    const windows = await run('restart', 'office-pc');
    expect(windows.code).toBe(1);
    oneLine(windows, 'Restart is not supported on Windows agents.', 'ERR_SERVICE_');
    const checksOff = await run('update', 'laptop');
    expect(checksOff.code).toBe(1);
    oneLine(checksOff, 'update checks off', 'ERR_SERVICE_', 'op_');
  });

  it('update --restart: its steps on a terminal stderr, then the new session and version', async () => {
    const agent = await agentNamed('db-box');
    try {
      await agent.online();
      const before = (await listed()).find((s) => s.agent === 'db-box');
      const result = await burrow(['update', 'db-box', '--restart', '--api-url', sandbox.url], {
        env: { BURROW_API_KEY: sandbox.apiKey },
        stderrIsTTY: true,
      });
      expect(result.code).toBe(0);
      expect(result.stderr.split('\n').filter((l) => l !== '')).toEqual([
        'Updating…',
        'Waiting 10 s for the update to settle…',
        'Restarting…',
        'Waiting for the agent to come back…',
      ]);
      expect(result.stdout).toMatch(
        new RegExp(
          `^db-box \\(${before?.id}\\) updated and restarted: now ts_\\S+ on \\S+ \\(was 3\\.1\\.2\\)\\.\\n$`,
        ),
      );
      expect(result.stdout).not.toContain(`now ${before?.id}`);
    } finally {
      await agent.stop();
    }
  });

  it('an agent nobody runs: one line, exit 1', async () => {
    const result = await run('restart', 'no-such-agent');
    expect(result.code).toBe(1);
    oneLine(result, '"no-such-agent"', 'burrow sessions');
  });

  it('stop asks first: refused off a terminal, then done by session id with --yes', async () => {
    const laptop = (await listed()).find((s) => s.agent === 'laptop');
    const refused = await run('stop', 'laptop');
    expect(refused.code).toBe(1);
    oneLine(refused, 'pass --yes');
    expect((await listed()).some((s) => s.id === laptop?.id)).toBe(true);
    const stopped = await run('stop', laptop?.id ?? '', '--yes', '--json');
    expect(stopped.code).toBe(0);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ ok: true, action: 'stop' });
    await expect
      .poll(async () => (await listed()).some((s) => s.agent === 'laptop'), { timeout: 15_000 })
      .toBe(false);
  });

  it('an agent name two sessions have: one line naming both ids, exit 1, nothing done', async () => {
    const twin = await agentNamed('build-box');
    try {
      await twin.online();
      const both = (await listed()).filter((s) => s.agent === 'build-box').map((s) => s.id);
      expect(both).toHaveLength(2);
      const result = await run('restart', 'build-box');
      expect(result.code).toBe(1);
      oneLine(result, '2 sessions have the agent name "build-box"', ...both);
      expect((await listed()).filter((s) => s.agent === 'build-box').map((s) => s.id)).toEqual(
        both,
      );
    } finally {
      await twin.stop();
    }
  });

  it('an agent name holding ESC, BEL and CR: escaped in the table, the watch and errors; exact in JSON', async () => {
    const hostile = 'evil\x1b]0;owned\x07\rbox\x9b2J\x7f';
    const shown = 'evil\\x1b]0;owned\\x07\\x0dbox\\u009b2J\\x7f';
    const agent = await agentNamed(hostile, 'windows');
    // Any control character but the newlines that end lines.
    const terminal = /[^\P{Cc}\n]/u;
    try {
      await agent.online();
      const session = (await listed()).find((s) => s.agent === hostile);
      expect(session).toBeDefined();
      const table = await run('sessions');
      expect(table.stdout).not.toMatch(terminal);
      expect(table.stdout).toContain(`${shown}  ${session?.id}`);
      // A Windows agent cannot restart: the refusal names it, escaped.
      const refused = await run('restart', session?.id ?? '');
      expect(refused.code).toBe(1);
      oneLine(refused, `restart ${shown} (${session?.id})`);
      expect(refused.stderr).not.toMatch(terminal);

      const stop = new AbortController();
      let out = '';
      const watching = burrow(['sessions', '--watch', '--api-url', sandbox.url], {
        env: { BURROW_API_KEY: sandbox.apiKey },
        signal: stop.signal,
        onStdout: (all) => (out = all),
      });
      await expect.poll(() => out).toContain(shown);
      stop.abort();
      expect((await watching).code).toBe(0);
      expect(out).not.toMatch(terminal);
    } finally {
      await agent.stop();
    }
  });
});
