/**
 * Handing a key and its certificate to the running ssh-agent through OpenSSH's own ssh-add, for
 * as long as the certificate stays valid. ssh-add picks up KEY-cert.pub beside KEY by itself.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { duration } from '../../../shared/app/clock.ts';
import type { AgentResult } from '../../../shared/app/ssh/results.ts';
import { SshError } from '../errors.ts';

const run = promisify(execFile);
const TIMEOUT_MS = 30_000;

type Failure = { code?: number | string; stderr?: string; killed?: boolean };

/**
 * An SSH_ASKPASS program that answers with the passphrase once, then refuses: ssh-add asks again
 * after a wrong passphrase, and would otherwise ask for ever. The passphrase itself only travels
 * in ssh-add's environment, never to disk.
 */
async function askpassOnce(dir: string): Promise<string> {
  const script = path.join(dir, 'askpass');
  await writeFile(
    script,
    '#!/bin/sh\n[ -e "$0.used" ] && exit 1\n: > "$0.used"\nprintf \'%s\\n\' "$BURROW_SSH_PASSPHRASE"\n',
    { mode: 0o700 },
  );
  await chmod(script, 0o700);
  return script;
}

type AgentAdd = {
  readonly privateKeyPath: string;
  /** The certificate line, to find it again in the agent's list. */
  readonly certificate: string;
  readonly lifetimeSeconds: number;
  readonly passphrase: string;
  readonly socket: string | undefined;
};

/** How to start an agent Burrow can reach, on the desktop it runs on. */
function howToStartAgent(platform: NodeJS.Platform): string {
  if (platform === 'win32')
    return 'Start the "OpenSSH Authentication Agent" service (Services, or `Start-Service ssh-agent` in an administrator PowerShell), then restart Burrow';
  return 'Start one with `eval "$(ssh-agent -s)"` in a terminal and start Burrow from that terminal, or log in to a desktop session that runs one';
}

/** The refusal when no agent is known: what to do about it, for this desktop. */
export function noAgent(platform: NodeJS.Platform = process.platform): SshError {
  return new SshError(
    'agent-unavailable',
    `No ssh-agent is running for Burrow (SSH_AUTH_SOCK is not set). ${howToStartAgent(platform)}; or use the ssh command instead.`,
  );
}

function agentEnv(socket: string | undefined): NodeJS.ProcessEnv {
  if (socket === undefined || socket === '') throw noAgent();
  return { ...process.env, SSH_AUTH_SOCK: socket };
}

function agentFailure(error: unknown, what: string): SshError {
  const failure = error as Failure;
  if (failure.code === 'ENOENT')
    return new SshError(
      'agent-failed',
      'ssh-add is not installed (it comes with the OpenSSH client)',
    );
  // ssh-add exits with 2 when it cannot reach the agent.
  if (failure.code === 2)
    return new SshError(
      'agent-unavailable',
      `Could not reach the ssh-agent; is it running? ${howToStartAgent(process.platform)}.`,
    );
  const detail = (failure.stderr ?? '').trim().split('\n').at(-1) || String(error);
  return new SshError('agent-failed', `${what}: ${detail}`);
}

export async function addToAgent(request: AgentAdd): Promise<AgentResult> {
  const env = agentEnv(request.socket);
  const dir =
    request.passphrase === '' ? undefined : await mkdtemp(path.join(tmpdir(), 'burrow-askpass-'));
  try {
    if (dir !== undefined) {
      env['SSH_ASKPASS'] = await askpassOnce(dir);
      env['SSH_ASKPASS_REQUIRE'] = 'force';
      env['BURROW_SSH_PASSPHRASE'] = request.passphrase;
    }
    await run('ssh-add', ['-t', String(request.lifetimeSeconds), request.privateKeyPath], {
      env,
      timeout: TIMEOUT_MS,
    }).catch((error: unknown) => {
      throw agentFailure(error, 'ssh-add refused the key');
    });
  } finally {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
  const listed = await run('ssh-add', ['-L'], { env, timeout: TIMEOUT_MS }).catch(
    (error: unknown) => {
      throw agentFailure(error, 'Could not list the agent’s keys');
    },
  );
  const [type = '', blob = ''] = request.certificate.trim().split(/\s+/);
  const certificateHeld = listed.stdout
    .split('\n')
    .some((line) => line.startsWith(`${type} ${blob}`));
  const until = `for ${duration(request.lifetimeSeconds)}, until the certificate expires`;
  return {
    lifetimeSeconds: request.lifetimeSeconds,
    certificateHeld,
    message: certificateHeld
      ? `The key and its certificate are in the ssh-agent ${until}.`
      : `The key is in the ssh-agent ${until}, but the agent did not keep the certificate: it is one that cannot hold certificates. Use the ssh command with CertificateFile, or OpenSSH's own ssh-agent.`,
  };
}
