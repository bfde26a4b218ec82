import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { builtBurrow } from '../../support/built-cli.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSnapshot } from '../../../core/snapshot/export/export.ts';
import { SNAPSHOT_KINDS } from '../../../shared/app/snapshot-document.ts';
import { clientOf, startSandbox, type Sandbox } from '../../integration/core/api/support.ts';
import { seedAccount } from '../../integration/core/snapshot/seed.ts';
import { burrow, tempDir } from '../../integration/cli/support.ts';
import { cleanupAfterAll } from '../../support/cleanup.ts';

type Spawned = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
};

/**
 * The real command in its own process. `killWhen` sees stdout as it comes; once it says so, the
 * process gets SIGKILL after `delayMs`.
 */
function spawnBurrow(
  argv: string[],
  env: Record<string, string | undefined> = {},
  kill?: { when: (stdout: string) => boolean; delayMs: number },
): Promise<Spawned> {
  const child = spawn(process.execPath, [builtBurrow(), ...argv], {
    env: { ...process.env, BURROW_DATA_DIR: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let armed = kill !== undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (armed && kill?.when(stdout)) {
      armed = false;
      setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

const cleanup = cleanupAfterAll();

describe('the burrow executable', () => {
  it('prints its help (exit 0), and a bad command line is one line (exit 1)', async () => {
    const help = await spawnBurrow(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: burrow COMMAND/);
    const bad = await spawnBurrow(['plan']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('burrow: burrow plan needs FILE (see "burrow plan --help")\n');
  });

  describe('kill -9 during apply, then the same command again', () => {
    let source: Sandbox;
    let target: Sandbox;
    let file: string;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = await tempDir(cleanup);
      source = await startSandbox({ apiKey: 'cli-kill-source', rateLimit: 'off' });
      target = await startSandbox({ apiKey: 'cli-kill-target', rateLimit: 'off' });
      cleanup.push(
        () => source.close(),
        () => target.close(),
      );
      const api = clientOf(source).client;
      cleanup.push(() => api.close());
      await seedAccount(api);
      file = join(dataDir, 'snapshot.json');
      const exported = await burrow(
        ['export', '--with-secrets', '-o', file, '--api-url', source.url],
        { env: { BURROW_API_KEY: source.apiKey } },
      );
      expect(exported.code).toBe(0);
      // Writes take a while, so that a kill lands in the middle of the apply.
      for (const method of ['POST', 'PATCH', 'PUT'])
        target.faults.add({ kind: 'latency', latencyMs: 40, method });
    });

    it('killed at random points until it finishes: the target equals the snapshot, nothing twice', async () => {
      const argv = ['apply', file, '--yes', '--api-url', target.url, '--data-dir', dataDir];
      const env = { BURROW_API_KEY: target.apiKey };
      // Each run is killed a moment after it shows the plan, having made a few more changes
      // than the last (or none): ten at most, until one finishes by itself. The moments are a
      // fixed spread over 0–400 ms, so a failure comes back the same on the next run.
      const killed: number[] = [];
      for (const delayMs of [0, 200, 50, 350, 100, 300, 150, 400, 250, 0]) {
        const run = await spawnBurrow(argv, env, {
          when: (out) => / to create, /.test(out),
          delayMs,
        });
        if (run.signal !== 'SIGKILL') {
          expect(run.code, run.stderr).toBe(0);
          break;
        }
        killed.push(delayMs);
      }
      expect(killed.length).toBeGreaterThan(2);
      const last = await spawnBurrow(argv, env);
      expect(last.code, last.stderr).toBe(0);

      const client = clientOf(target).client;
      const sourceClient = clientOf(source).client;
      try {
        const [mine, theirs] = await Promise.all([
          exportSnapshot(client, { apiUrl: 'target', withSecrets: true }),
          exportSnapshot(sourceClient, { apiUrl: 'source', withSecrets: true }),
        ]);
        for (const kind of SNAPSHOT_KINDS)
          expect(
            mine.resources[kind].map((r) => r.name),
            kind,
          ).toEqual(theirs.resources[kind].map((r) => r.name));
      } finally {
        await client.close();
        await sourceClient.close();
      }
      const plan = await burrow(['plan', file, '--api-url', target.url], {
        env: { BURROW_API_KEY: target.apiKey },
      });
      expect(plan.code, plan.stdout).toBe(0);
      expect(await readdir(join(dataDir, 'snapshots'))).toEqual([]);
    }, 180_000);
  });
});
