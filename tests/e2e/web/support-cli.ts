import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bin } from '../../support/bins.ts';

const repo = fileURLToPath(new URL('../../..', import.meta.url));

export type WebApp = {
  url: string;
  home: string;
  /** Everything the process printed, stdout and stderr, for looking for what must not be there. */
  output: () => string;
  stop(): Promise<void>;
};

/**
 * `npm run web` as a person starts it, on a throwaway HOME (the keyring of the test's D-Bus
 * session stays reachable): the built renderer, the real core, the embedded Local sandbox.
 */
export async function startWebApp(
  options: {
    /** `<requests>/<seconds>` or `off`, as `--sandbox-rate-limit` takes it. */
    sandboxRateLimit?: string;
    /** The monitor's poll interval, below the setting's floor of 5 s: for waits on a poll. */
    pollIntervalMs?: number;
    /** An update-and-restart's wait before the restart, above the spec's 10 s. */
    updateSettleMs?: number;
  } = {},
): Promise<WebApp> {
  const home = await mkdtemp(path.join(tmpdir(), 'burrow-home-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      bin('web-cli'),
      '--port',
      '0',
      ...(options.sandboxRateLimit ? ['--sandbox-rate-limit', options.sandboxRateLimit] : []),
    ],
    {
      cwd: repo,
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: '',
        ...(options.pollIntervalMs && {
          BURROW_TEST_POLL_INTERVAL_MS: String(options.pollIntervalMs),
        }),
        ...(options.updateSettleMs && {
          BURROW_TEST_UPDATE_SETTLE_MS: String(options.updateSettleMs),
        }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm run web did not start:\n${output}`)),
      // A backstop: it starts in about a second alone, in over 30 on a loaded two-core machine.
      90_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm run web exited with ${code}:\n${output}`)));
  });
  return {
    url,
    home,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
