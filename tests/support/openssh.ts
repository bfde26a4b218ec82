/**
 * Real OpenSSH for tests: ssh-keygen to make keys and read certificates, an sshd on a loopback
 * port with a throwaway configuration, and the ssh client to log in to it. Everything lives in a
 * temporary folder; sshd runs as the current user and only lets that user in.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);
export const SSHD = '/usr/sbin/sshd';
export const sshdInstalled = existsSync(SSHD);
export const currentUser = userInfo().username;

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

/**
 * What ssh-keygen prints, given `args`. It prints certificate times in local time: in UTC they
 * compare with the API's.
 */
export async function sshKeygen(...args: string[]): Promise<string> {
  return (await run('ssh-keygen', args, { env: { ...process.env, TZ: 'UTC' } })).stdout;
}

export type KeyType = 'ed25519' | 'ecdsa' | 'rsa';

/** A fresh key pair from ssh-keygen: the private key's path and the public key's line. */
export async function makeKeyPair(
  dir: string,
  name: string,
  type: KeyType = 'ed25519',
  bits?: number,
): Promise<{ privatePath: string; publicKey: string }> {
  const privatePath = path.join(dir, name);
  // ssh-keygen would ask on stdin whether to overwrite, and wait for ever.
  if (existsSync(privatePath)) throw new Error(`makeKeyPair: ${privatePath} exists`);
  const args = ['-q', '-t', type, '-N', '', '-C', name, '-f', privatePath];
  if (bits) args.push('-b', String(bits));
  await sshKeygen(...args);
  return { privatePath, publicKey: (await readFile(`${privatePath}.pub`, 'utf8')).trim() };
}

let fileCounter = 0;
/** A file of its own in `dir`, so that concurrent calls never share one. */
function uniqueFile(dir: string, prefix: string): string {
  return path.join(dir, `${prefix}-${process.pid}-${++fileCounter}`);
}

/** What `ssh-keygen -L` prints for a certificate line (times in UTC). */
export async function describeCertificate(dir: string, certificate: string): Promise<string> {
  const file = `${uniqueFile(dir, 'cert')}.pub`;
  await writeFile(file, `${certificate}\n`);
  return sshKeygen('-L', '-f', file);
}

/** The SHA-256 fingerprint (`SHA256:…`) `ssh-keygen -lf` gives a public key line. */
export async function fingerprint(dir: string, publicKey: string): Promise<string> {
  const file = `${uniqueFile(dir, 'key')}.pub`;
  await writeFile(file, `${publicKey}\n`);
  const stdout = await sshKeygen('-l', '-E', 'sha256', '-f', file);
  const found = /\bSHA256:[A-Za-z0-9+/]+/.exec(stdout);
  if (!found) throw new Error(`no fingerprint in: ${stdout}`);
  return found[0];
}

/** `ssh-keygen -L`, read back into fields (the ones a certificate's API representation has). */
export interface CertificateListing {
  /** `ssh-ed25519-cert-v01@openssh.com`, … */
  certType: string;
  kind: 'user' | 'host';
  /** The certified key's fingerprint (`SHA256:…`). */
  publicKey: string;
  caFingerprint: string;
  /** The algorithm of the CA's signature: `ssh-ed25519`, `ecdsa-sha2-nistp256`, `rsa-sha2-512`. */
  signatureAlgorithm: string;
  keyId: string;
  serial: bigint;
  /** RFC 3339 UTC with milliseconds, like the API's; undefined for "always" and "forever". */
  validAfter: string | undefined;
  validBefore: string | undefined;
  principals: string[];
  criticalOptions: Record<string, string>;
  extensions: Record<string, string>;
}

/** The options ssh-keygen prints without a value, and the critical ones it prints as text. */
const FLAG_EXTENSIONS = new Set([
  'permit-X11-forwarding',
  'permit-agent-forwarding',
  'permit-port-forwarding',
  'permit-pty',
  'permit-user-rc',
  'no-touch-required',
]);
const TEXT_CRITICAL_OPTIONS = new Set(['force-command', 'source-address']);

/** One option line of -L: `name`, `name value`, or `name UNKNOWN OPTION: <hex> (len n)`. */
function readOption(line: string, critical: boolean): [string, string] {
  const space = line.indexOf(' ');
  const name = space < 0 ? line : line.slice(0, space);
  const rest = space < 0 ? '' : line.slice(space + 1);
  if (!critical && FLAG_EXTENSIONS.has(name)) return [name, ''];
  if (critical && TEXT_CRITICAL_OPTIONS.has(name)) return [name, rest];
  if (rest === 'UNKNOWN FLAG OPTION') return [name, ''];
  const unknown = /^UNKNOWN OPTION: ([0-9a-f]*) \(len \d+\)$/.exec(rest);
  if (!unknown) throw new Error(`unreadable option line: ${line}`);
  // The data is itself an SSH string: a length, then the value.
  return [
    name,
    Buffer.from(unknown[1] ?? '', 'hex')
      .subarray(4)
      .toString('utf8'),
  ];
}

const utcOf = (localTime: string) => new Date(`${localTime}Z`).toISOString();

function readValidity(text: string): Pick<CertificateListing, 'validAfter' | 'validBefore'> {
  if (text === 'forever') return { validAfter: undefined, validBefore: undefined };
  const fromTo = /^from (\S+) to (\S+)$/.exec(text);
  if (fromTo) return { validAfter: utcOf(fromTo[1] ?? ''), validBefore: utcOf(fromTo[2] ?? '') };
  const before = /^before (\S+)$/.exec(text);
  if (before) return { validAfter: undefined, validBefore: utcOf(before[1] ?? '') };
  const after = /^after (\S+)$/.exec(text);
  if (after) return { validAfter: utcOf(after[1] ?? ''), validBefore: undefined };
  throw new Error(`unreadable validity: ${text}`);
}

/** Reads what describeCertificate printed; throws on anything it does not recognise. */
export function parseCertificateListing(listing: string): CertificateListing {
  const fields = new Map<string, string>();
  const lists = new Map<string, string[]>();
  let list: string[] | undefined;
  for (const line of listing.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const item = /^ {16}(.*)$/.exec(line);
    if (item && list) {
      list.push(item[1] ?? '');
      continue;
    }
    const field = /^ {8}([A-Za-z ]+): ?(.*)$/.exec(line);
    if (!field) throw new Error(`unreadable line of ssh-keygen -L: ${JSON.stringify(line)}`);
    const [name = '', value = ''] = [field[1], field[2]];
    fields.set(name, value);
    list = value === '' ? [] : undefined;
    if (list) lists.set(name, list);
  }
  const get = (name: string) => {
    const value = fields.get(name);
    if (value === undefined) throw new Error(`ssh-keygen -L printed no ${name}:\n${listing}`);
    return value;
  };
  const type = /^(\S+) (user|host) certificate$/.exec(get('Type'));
  const ca = /^\S+ (SHA256:\S+) \(using (\S+)\)$/.exec(get('Signing CA'));
  const keyId = /^"(.*)"$/.exec(get('Key ID'));
  if (!type || !ca || !keyId) throw new Error(`unreadable ssh-keygen -L:\n${listing}`);
  const options = (name: string, critical: boolean) =>
    Object.fromEntries((lists.get(name) ?? []).map((line) => readOption(line, critical)));
  return {
    certType: type[1] ?? '',
    kind: type[2] === 'user' ? 'user' : 'host',
    publicKey: get('Public key').split(' ')[1] ?? '',
    caFingerprint: ca[1] ?? '',
    signatureAlgorithm: ca[2] ?? '',
    keyId: keyId[1] ?? '',
    serial: BigInt(get('Serial')),
    ...readValidity(get('Valid')),
    principals: lists.get('Principals') ?? [],
    criticalOptions: options('Critical Options', true),
    extensions: options('Extensions', false),
  };
}

export interface Sshd {
  port: number;
  /** The host key's public line, for a known_hosts entry. */
  hostPublicKey: string;
  log(): string;
  close(): Promise<void>;
}

export interface SshdOptions {
  /** CA public keys whose user certificates sshd accepts (TrustedUserCAKeys). */
  trustedUserCaKeys?: string[];
  /** A host key pair to serve with, and the host certificate to present for it. */
  hostKey?: { privatePath: string; publicKey: string };
  hostCertificate?: string;
}

/** Starts sshd on a free loopback port and waits until it listens. */
export async function startSshd(parent: string, options: SshdOptions): Promise<Sshd> {
  // A folder per sshd: sshd re-reads its files for every connection, so concurrent sshds must
  // not share any.
  const dir = await mkdtemp(path.join(parent, 'sshd-'));
  const hostKey = options.hostKey ?? (await makeKeyPair(dir, 'sshd_host_key'));
  await chmod(hostKey.privatePath, 0o600);
  const lines = [
    `HostKey ${hostKey.privatePath}`,
    `PidFile ${path.join(dir, 'sshd.pid')}`,
    'AuthorizedKeysFile none',
    'StrictModes no',
    'UsePAM no',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'LogLevel VERBOSE',
  ];
  if (options.trustedUserCaKeys) {
    const file = path.join(dir, 'trusted_user_ca_keys');
    await writeFile(file, `${options.trustedUserCaKeys.join('\n')}\n`);
    lines.push(`TrustedUserCAKeys ${file}`);
  }
  if (options.hostCertificate) {
    const file = path.join(dir, 'sshd_host_key-cert.pub');
    await writeFile(file, `${options.hostCertificate}\n`);
    lines.push(`HostCertificate ${file}`);
  }
  // sshd insists on its privilege-separation folder when started as root.
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });

  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const config = path.join(dir, `sshd_config_${port}`);
    await writeFile(config, [`ListenAddress 127.0.0.1:${port}`, ...lines].join('\n') + '\n');
    const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const ready = await waitForListening(child, () => log);
    if (ready) {
      return {
        port,
        hostPublicKey: hostKey.publicKey,
        log: () => log,
        close: () => stop(child),
      };
    }
    await stop(child);
    if (attempt === 4) throw new Error(`sshd did not start:\n${log}`);
  }
}

async function waitForListening(child: ChildProcess, log: () => string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (log().includes('Server listening on')) return true;
    if (child.exitCode !== null) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface SshLogin {
  port: number;
  user: string;
  identityFile: string;
  certificateFile?: string;
  /** known_hosts content; without it the host key is not checked at all. */
  knownHosts?: string;
  command?: string;
}

/** Runs one command over ssh; resolves with its exit code and output, never rejects. */
export async function sshLogin(
  dir: string,
  login: SshLogin,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [
    '-p',
    String(login.port),
    '-i',
    login.identityFile,
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'ConnectTimeout=10',
    '-o',
    'LogLevel=ERROR',
    '-F',
    'none',
  ];
  if (login.certificateFile) args.push('-o', `CertificateFile=${login.certificateFile}`);
  if (login.knownHosts !== undefined) {
    const file = uniqueFile(dir, 'known_hosts');
    await writeFile(file, login.knownHosts);
    args.push(
      '-o',
      `UserKnownHostsFile=${file}`,
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      'GlobalKnownHostsFile=/dev/null',
    );
  } else {
    args.push('-o', 'UserKnownHostsFile=/dev/null', '-o', 'StrictHostKeyChecking=no');
  }
  args.push(`${login.user}@127.0.0.1`, login.command ?? 'echo ok');
  return runSsh(args);
}

type SshRun = { code: number; stdout: string; stderr: string };

/** One run of the ssh client; resolves with its exit code and output, never rejects. */
async function runSsh(args: string[]): Promise<SshRun> {
  try {
    const { stdout, stderr } = await run('ssh', args, { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 255,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface Agent {
  /** The socket to set as SSH_AUTH_SOCK. */
  socket: string;
  /** `ssh-add -L`: the public keys and certificates the agent holds, one line each. */
  list(): Promise<string[]>;
  close(): Promise<void>;
}

/** A real ssh-agent in the foreground on a socket of its own in `parent`, for one test. */
export async function startAgent(parent: string): Promise<Agent> {
  const dir = await mkdtemp(path.join(parent, 'agent-'));
  const socket = path.join(dir, 'agent.sock');
  const child = spawn('ssh-agent', ['-D', '-a', socket], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  for (let i = 0; !existsSync(socket); i++) {
    if (child.exitCode !== null || i === 100) throw new Error(`ssh-agent did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    socket,
    async list() {
      const env = { ...process.env, SSH_AUTH_SOCK: socket };
      const { stdout } = await run('ssh-add', ['-L'], { env }).catch(
        (error: { code?: number; stdout?: string }) => {
          // 1: the agent holds no identities.
          if (error.code === 1) return { stdout: '' };
          throw error;
        },
      );
      return stdout.split('\n').filter((line) => line.trim() !== '');
    },
    close: () => stop(child),
  };
}

/** `ssh -G -F config host`: the options ssh would use for `host`, by lower-case name. */
export async function sshEffectiveConfig(
  configFile: string,
  host: string,
): Promise<Map<string, string[]>> {
  const { stdout } = await run('ssh', ['-G', '-F', configFile, host]);
  const options = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const name = line.slice(0, space);
    options.set(name, [...(options.get(name) ?? []), line.slice(space + 1)]);
  }
  return options;
}

/** Runs `command` on `host` as an ssh config file describes it; never rejects. */
export async function sshWithConfig(
  configFile: string,
  host: string,
  command: string,
): Promise<SshRun> {
  return runSsh([
    '-F',
    configFile,
    '-o',
    'BatchMode=yes',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'LogLevel=ERROR',
    host,
    command,
  ]);
}

/**
 * An agent that, like some agents built into desktops, keeps plain ed25519 keys but refuses
 * certificates: just enough of the agent protocol (draft-miller-ssh-agent) for ssh-add to add
 * a key and list it. For showing that Burrow notices; OpenSSH's own agent is startAgent.
 */
export async function startCertificateBlindAgent(
  parent: string,
): Promise<{ socket: string; close(): Promise<void> }> {
  const { createServer: createUnixServer } = await import('node:net');
  const dir = await mkdtemp(path.join(parent, 'blind-agent-'));
  const socket = path.join(dir, 'agent.sock');
  const held: Buffer[] = [];
  const str = (b: Buffer) => Buffer.concat([u32(b.length), b]);
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const reply = (type: number, body = Buffer.alloc(0)) =>
    Buffer.concat([u32(body.length + 1), Buffer.of(type), body]);
  const answer = (message: Buffer): Buffer => {
    const type = message[0];
    if (type === 11)
      return reply(
        12,
        Buffer.concat([
          u32(held.length),
          ...held.map((blob) => Buffer.concat([str(blob), str(Buffer.from('held'))])),
        ]),
      );
    if (type === 17 || type === 25) {
      const keyTypeLength = message.readUInt32BE(1);
      const keyType = message.subarray(5, 5 + keyTypeLength).toString();
      if (keyType !== 'ssh-ed25519') return reply(5);
      const pkLength = message.readUInt32BE(5 + keyTypeLength);
      const pk = message.subarray(9 + keyTypeLength, 9 + keyTypeLength + pkLength);
      held.push(Buffer.concat([str(Buffer.from(keyType)), str(pk)]));
      return reply(6);
    }
    return reply(5);
  };
  const server = createUnixServer((conn) => {
    let pending = Buffer.alloc(0);
    conn.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
        const length = pending.readUInt32BE(0);
        conn.write(answer(pending.subarray(4, 4 + length)));
        pending = pending.subarray(4 + length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { socket, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
