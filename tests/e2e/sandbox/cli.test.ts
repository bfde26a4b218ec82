import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { bin } from '../../support/bins.ts';
import { ACCOUNTS } from '../../integration/sandbox/support.ts';

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs the CLI; `onReady` gets the base URL once it is printed, and the child to stop. */
type OnReady = (url: string, stop: (signal: NodeJS.Signals) => void, output: () => string) => void;

function cli(args: string[], onReady?: OnReady): Promise<Run> {
  const child = spawn(process.execPath, [bin('sandbox-cli'), ...args], {
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const match = /Sandbox ready at (\S+)/.exec(stdout);
    if (match?.[1] && onReady) {
      const ready = onReady;
      onReady = undefined;
      ready(
        match[1],
        (signal) => child.kill(signal),
        () => stdout,
      );
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('npm run sandbox', () => {
  it('prints its URL and a generated key, serves, and stops cleanly on SIGTERM', async () => {
    let checked: Promise<number> | undefined;
    const run = await cli(['--port', '0'], (url, stop, output) => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      checked = (async () => {
        let key: string | undefined;
        while ((key = /API key: (\S+)\n/.exec(output())?.[1]) === undefined) await sleep(10);
        const reply = await apiCaller(url, key)('GET', '/ip_policies');
        stop('SIGTERM');
        return reply.status;
      })();
    });
    expect(await checked).toBe(200);
    expect(run.code).toBe(0);
    expect(run.stdout.match(/API key: /g)).toHaveLength(1);
  });

  it('loads an accounts file, leaves Retry-After out when asked, and stops on SIGINT', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'burrow-cli-')), 'accounts.json');
    writeFileSync(file, JSON.stringify(ACCOUNTS));
    let replies: Promise<ApiReply[]> | undefined;
    const run = await cli(
      ['--port', '0', '--accounts', file, '--rate-limit', '1/60', '--no-retry-after'],
      (url, stop) => {
        const bob = apiCaller(url, 'bob-key-1');
        replies = (async () => {
          const both = [await bob('GET', '/credentials'), await bob('GET', '/credentials')];
          stop('SIGINT');
          return both;
        })();
      },
    );
    const [admitted, refused] = (await replies) ?? [];
    expect(admitted?.status).toBe(200);
    expect(refused?.status).toBe(429);
    expect(refused?.headers.has('retry-after')).toBe(false);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('API key');
  });

  it('refuses bad arguments with one line and the usage, exit 2', async () => {
    for (const args of [
      ['--bogus'],
      ['--port', 'x'],
      ['--rate-limit', '5'],
      ['--accounts', '/nonexistent.json'],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      const [first, second] = run.stderr.trim().split('\n');
      expect(first).toMatch(/^sandbox: /);
      expect(second).toMatch(/^usage: npm run sandbox/);
    }
    const file = join(mkdtempSync(join(tmpdir(), 'burrow-cli-')), 'accounts.json');
    writeFileSync(
      file,
      JSON.stringify({ accounts: [{ name: 'x', users: [{ id: 'alice', api_keys: [] }] }] }),
    );
    const run = await cli(['--accounts', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('accounts.0.users.0.id');
  });
});
