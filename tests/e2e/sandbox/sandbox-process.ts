/** A sandbox in a child process (`npm run sandbox`'s script), for tests that kill it. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin } from '../../support/bins.ts';

export type SandboxProcess = {
  readonly child: ChildProcessWithoutNullStreams;
  /** The base URL once it is printed; rejects if the process exits first. */
  readonly ready: Promise<string>;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
};

/** A data file path in a fresh directory. */
export const freshDataFile = (prefix = 'burrow-data-') =>
  join(mkdtempSync(join(tmpdir(), prefix)), 'state.json');

/** The sandbox CLI on a free port with API key `k`, no rate limit, and `args`. */
export function spawnSandbox(args: readonly string[], env: NodeJS.ProcessEnv = {}): SandboxProcess {
  const child = spawn(
    process.execPath,
    [bin('sandbox-cli'), '--port', '0', '--api-key', 'k', '--rate-limit', 'off', ...args],
    { stdio: 'pipe', env: { ...process.env, ...env } },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    // 'close', not 'exit': the last of stderr may still be in the pipe when the child exits.
    (resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /Sandbox ready at (\S+)/.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    void exit.then(({ code, signal }) =>
      reject(new Error(`sandbox exited (${code ?? signal}) before it was ready: ${stderr}`)),
    );
  });
  // A test that only awaits `exit` (a sandbox expected to refuse to start) leaves `ready` alone.
  ready.catch(() => undefined);
  return { child, ready, exit };
}
