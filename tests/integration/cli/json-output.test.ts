import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../sandbox/agent/agent.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { builtBurrow } from '../../support/built-cli.ts';
import { startSandbox, type Sandbox } from '../core/api/support.ts';

/*
 * `--json` from the built command, an agent's name full of what a terminal or a JSON-lines
 * reader acts on: the bytes carry none of it raw, and parse back to the exact name.
 */

/** CSI, OSC and ST (C1), DEL, the line and paragraph separators and a right-to-left override. */
const NAME = 'evil\u009b2J\u009d0;owned\u009c\u007f\u2028line\u2029para\u202egnp.exe';
/** Anything but the newlines that end lines: a control, a Unicode separator or a bidi control. */
const RAW = /[^\P{Cc}\n]|[\p{Zl}\p{Zp}\p{Bidi_Control}]/u;

let sandbox: Sandbox;
let agent: Agent;

type Spawned = { code: number | null; stdout: string; stderr: string };

/** The built `burrow ARGV` on the sandbox, in a process of its own; stopped once `until` says. */
function burrow(argv: string[], until?: (stdout: string) => boolean): Promise<Spawned> {
  const child = spawn(process.execPath, [builtBurrow(), ...argv, '--api-url', sandbox.url], {
    env: { ...process.env, BURROW_DATA_DIR: undefined, BURROW_API_KEY: sandbox.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (until?.(stdout)) child.kill('SIGINT');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'cli-json-output', rateLimit: 'off' });
  const { token } = (await apiCaller(sandbox.url, sandbox.apiKey ?? '')('POST', '/credentials', {}))
    .body as { token: string };
  agent = new Agent({
    url: sandbox.agentUrl,
    authtoken: token,
    version: '3.1.2',
    os: 'linux',
    metadata: JSON.stringify({ host: NAME }),
  }).start();
  await agent.online();
});

afterAll(async () => {
  await agent.stop();
  await sandbox.close();
});

describe("--json escapes an agent name's controls and separators", () => {
  it('burrow agents --json', async () => {
    const result = await burrow(['agents', '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).not.toMatch(RAW);
    expect(result.stdout).toContain('\\u009b2J\\u009d0;owned\\u009c\\u007f\\u2028line\\u2029');
    expect((JSON.parse(result.stdout) as { name: string }[]).map((a) => a.name)).toEqual([NAME]);
  });

  it('burrow sessions --json', async () => {
    const result = await burrow(['sessions', '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).not.toMatch(RAW);
    expect((JSON.parse(result.stdout) as { agent: string }[]).map((s) => s.agent)).toEqual([NAME]);
  });

  it('burrow sessions --watch --json, a line of JSON an event', async () => {
    const result = await burrow(['sessions', '--watch', '--json'], (out) => out.endsWith('\n'));
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(RAW);
    const lines = result.stdout.split('\n').filter((l) => l !== '');
    expect(
      lines.map((l) => (JSON.parse(l) as { session: { agent: string } }).session.agent),
    ).toEqual([NAME]);
  });
});
