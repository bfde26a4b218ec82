/**
 * The real OpenSSH client as a tunnel agent of the sandbox's SSH gateway:
 * `ssh -R … v2@127.0.0.1 tunnel` as a child process whose output a test can wait for.
 */
import { spawn } from 'node:child_process';

export type SshExit = { code: number | null; stdout: string; stderr: string };

export type Ssh = {
  /** Resolves when stdout and stderr together include `text`; rejects if ssh exits first. */
  output(text: string): Promise<void>;
  readonly exited: Promise<SshExit>;
  kill(signal: NodeJS.Signals): void;
};

export type SshOptions = {
  forward?: string;
  command?: string;
  user?: string;
  /** The gateway's port, and a known_hosts file to check its host key against. */
  port: number;
  knownHosts?: string;
};

/** `ssh [-R forward] user@127.0.0.1 command` to a gateway; command `-N` runs none. */
export function sshTunnel(key: string, options: SshOptions): Ssh {
  const { forward, command = 'tunnel', user = 'v2', knownHosts } = options;
  const args = [
    ...(command === '-N' ? ['-N'] : []),
    ...['-p', String(options.port), '-i', key, '-F', 'none'],
    ...['-o', 'IdentitiesOnly=yes', '-o', 'BatchMode=yes', '-o', 'LogLevel=ERROR'],
    ...(knownHosts
      ? ['-o', 'StrictHostKeyChecking=yes', '-o', `UserKnownHostsFile=${knownHosts}`]
      : ['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null']),
    ...['-o', 'GlobalKnownHostsFile=/dev/null'],
    ...['-o', 'ExitOnForwardFailure=yes'],
    ...(forward ? ['-R', forward] : []),
    `${user}@127.0.0.1`,
    ...(command === '-N' ? [] : [command]),
  ];
  const child = spawn('ssh', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters = new Map<string, () => void>();
  const check = () => {
    for (const [text, resolve] of waiters)
      if ((stdout + stderr).includes(text)) {
        waiters.delete(text);
        resolve();
      }
  };
  child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), check()));
  child.stderr.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), check()));
  const exited = new Promise<SshExit>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return {
    output: (text) =>
      Promise.race([
        new Promise<void>((resolve) => {
          waiters.set(text, resolve);
          check();
        }),
        exited.then(({ code }) => {
          if (!(stdout + stderr).includes(text))
            throw new Error(`ssh exited (${code}) before "${text}":\n${stdout}${stderr}`);
        }),
      ]),
    exited,
    kill: (signal) => child.kill(signal),
  };
}
