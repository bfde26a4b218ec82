/**
 * The SSH gateway against the real OpenSSH client: keys from ssh-keygen registered as SSH
 * credentials through the API, `ssh -R … v2@127.0.0.1 tunnel` as a child process, and the
 * session it makes (or must not make) read back through the API.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TunnelSession } from '../../../shared/api/kinds/tunnel-sessions.ts';
import { CHANNEL_WAIT_MS } from '../../../sandbox/gateway/connection.ts';
import { hostKeyPath } from '../../../sandbox/gateway/host-key.ts';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { makeKeyPair, removeDir, tempDir } from '../../support/openssh.ts';
import { sshTunnel, type Ssh, type SshOptions } from '../../support/ssh-tunnel.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { bin } from '../../support/bins.ts';
import { ACCOUNTS, expectError } from '../../integration/sandbox/support.ts';

type Api = (method: string, path: string, body?: unknown) => Promise<ApiReply>;

let sandbox: Sandbox;
let dir: string;
let alice: Api;
let carol: Api;
/** Private key paths: registered in acme, in globex, with an ACL in acme, and nowhere. */
const keys = { acme: '', globex: '', acl: '', unknown: '' };
const credentials = { acme: '', globex: '', acl: '' };
/** What a test does with each line the sandbox logs. */
let onLog: ((line: string) => void) | undefined;
/** Clients still running: a test that fails leaves none to the next one. */
const running = new Set<Ssh>();

async function register(api: Api, publicKey: string, acl?: string[]): Promise<string> {
  const reply = await api('POST', '/ssh_credentials', { public_key: publicKey, acl });
  expect(reply.status).toBe(201);
  return reply.body.id;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: ACCOUNTS,
    rateLimit: 'off',
    sshPort: 0,
    log: (line) => onLog?.(line),
  });
  dir = await tempDir('burrow-gateway-');
  alice = apiCaller(sandbox.url, 'alice-key-1');
  carol = apiCaller(sandbox.url, 'carol-key-1');
  // One key of each type, so that each signature kind is verified (RSA signs with rsa-sha2-*).
  const [acme, globex, acl, unknown] = await Promise.all([
    makeKeyPair(dir, 'acme'),
    makeKeyPair(dir, 'globex', 'ecdsa'),
    makeKeyPair(dir, 'acl', 'rsa', 2048),
    makeKeyPair(dir, 'unknown'),
  ]);
  keys.acme = acme.privatePath;
  keys.globex = globex.privatePath;
  keys.acl = acl.privatePath;
  keys.unknown = unknown.privatePath;
  credentials.acme = await register(alice, acme.publicKey);
  credentials.globex = await register(carol, globex.publicKey);
  credentials.acl = await register(alice, acl.publicKey, ['bind:*.example.com']);
});
afterEach(async () => {
  onLog = undefined;
  const left = [...running];
  running.clear();
  for (const client of left) client.kill('SIGKILL');
  await Promise.all(left.map((client) => client.exited));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) await removeDir(dir);
});

/** `ssh` to this file's gateway unless the options name another port. */
function ssh(key: string, options: Partial<SshOptions> = {}): Ssh {
  const client = sshTunnel(key, { port: sandbox.sshPort ?? 0, ...options });
  running.add(client);
  void client.exited.then(() => running.delete(client));
  return client;
}

async function sessions(api: Api): Promise<TunnelSession[]> {
  const reply = await api('GET', '/tunnel_sessions');
  expect(reply.status).toBe(200);
  return reply.body.tunnel_sessions;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Connects with `-R 0:localhost:8080 … tunnel`; the client and the session it holds. */
async function online(key: string, credential: string, api: Api) {
  const client = ssh(key, { forward: '0:localhost:8080' });
  await client.output('Forwarding tcp://');
  const session = (await sessions(api)).find((s) => s.credential.id === credential);
  if (!session) throw new Error(`no session listed for ${credential}`);
  return { client, session };
}

const gone = (api: Api, id: string) => async () =>
  !(await sessions(api)).some((session) => session.id === id);

describe('the SSH gateway', () => {
  it('makes one ssh-transport session per connection, listed while it lasts', async () => {
    const client = ssh(keys.acme, { forward: '0:localhost:8080' });
    await client.output('Forwarding tcp://');
    const [session, ...others] = await sessions(alice);
    expect(others).toEqual([]);
    expect(TunnelSession.safeParse(session).success).toBe(true);
    expect(session).toMatchObject({
      transport: 'ssh',
      credential: {
        id: credentials.acme,
        uri: `${sandbox.url}/ssh_credentials/${credentials.acme}`,
      },
      ip: '127.0.0.1',
      region: 'us',
      uri: `${sandbox.url}/tunnel_sessions/${session?.id}`,
    });
    expect(session?.agent_version).toMatch(/^OpenSSH_/);
    expect(Date.now() - Date.parse(session?.started_at ?? '')).toBeLessThan(10_000);
    await client.output(`Session ${session?.id} online`);
    expect((await alice('GET', `/tunnel_sessions/${session?.id}`)).body).toEqual(session);

    client.kill('SIGTERM');
    await client.exited;
    await until(gone(alice, session?.id ?? ''));
    expectError(await alice('GET', `/tunnel_sessions/${session?.id}`), 'notFound');
  });

  it('refuses keys no credential holds, other users and other commands', async () => {
    const unknown = await ssh(keys.unknown, { forward: '0:localhost:8080' }).exited;
    expect(unknown.code).toBe(255);
    expect(unknown.stderr).toMatch(/Permission denied \(publickey\)/);
    const root = await ssh(keys.acme, { user: 'root' }).exited;
    expect(root.code).toBe(255);
    expect(root.stderr).toMatch(/Permission denied \(publickey\)/);
    const shell = await ssh(keys.acme, { command: 'cat /etc/passwd' }).exited;
    expect(shell.code).toBe(2);
    expect(shell.stderr).toContain('Unknown command "cat /etc/passwd"');
    expect(await sessions(alice)).toEqual([]);
    expect(await sessions(carol)).toEqual([]);
  });

  it('puts the session in the account of the key’s credential, and only there', async () => {
    const { client, session } = await online(keys.globex, credentials.globex, carol);
    expect(session.credential.id).toBe(credentials.globex);
    expect(await sessions(alice)).toEqual([]);
    expectError(await alice('GET', `/tunnel_sessions/${session.id}`), 'notFound');
    expectError(await alice('POST', `/tunnel_sessions/${session.id}/stop`, {}), 'notFound');
    client.kill('SIGTERM');
    await until(gone(carol, session.id));
  });

  it('checks each -R bind against the credential’s ACL and says why it refuses one', async () => {
    const [named, evil, assigned] = [
      ssh(keys.acl, { forward: 'app.example.com:80:localhost:8080' }),
      ssh(keys.acl, { forward: 'evil.com:80:localhost:8080' }),
      ssh(keys.acl, { forward: '0:localhost:8080' }),
    ];
    await named.output('Forwarding tcp://app.example.com:80 ');
    const refused = await evil.exited;
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain(
      "Bind refused: evil.com is not permitted by this credential's ACL (bind:*.example.com)",
    );
    // A hostname the service would pick is no name the ACL lists.
    const unnamed = await assigned.exited;
    expect(unnamed.code).toBe(255);
    expect(unnamed.stderr).toContain('Bind refused:');
    await until(async () => (await sessions(alice)).length === 1);
    named.kill('SIGTERM');
    await named.exited;
    await until(async () => (await sessions(alice)).length === 0);
  });

  it('says why a bind is refused even when the machine stalls past the wait for a channel', async () => {
    // The stall starts once the refusal is held and outlasts its wait: the client's channel
    // request lies unread meanwhile, as on a busy machine, and the wait's timer fires first.
    onLog = (line) => {
      if (!line.includes('bind refused')) return;
      setImmediate(() => {
        const until = Date.now() + CHANNEL_WAIT_MS + 500;
        while (Date.now() < until);
      });
    };
    const refused = await ssh(keys.acl, { forward: 'evil.com:80:localhost:8080' }).exited;
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain(
      "Bind refused: evil.com is not permitted by this credential's ACL (bind:*.example.com)",
    );
  });

  it('says why a bind is refused even when the client reads nothing while it is said', async () => {
    // Stopped as its tunnel starts, the client finds the reason and the refusal in one read once
    // it goes on: OpenSSH exits on the refusal before writing the reason out, unless the refusal
    // waits for the client's answer to a keepalive sent after the reason.
    const client = ssh(keys.acl, { forward: 'evil.com:80:localhost:8080' });
    let resumed: Promise<void> | undefined;
    // Set in the same turn as the spawn: the gateway logs nothing of this client before it.
    onLog = (line) => {
      if (!line.includes('started its tunnel')) return;
      client.kill('SIGSTOP');
      // Long enough for a refusal that does not wait to have gone out meanwhile.
      resumed = new Promise((resolve) => setTimeout(() => resolve(client.kill('SIGCONT')), 500));
    };
    const refused = await client.exited;
    await resumed;
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain(
      "Bind refused: evil.com is not permitted by this credential's ACL (bind:*.example.com)",
    );
  });

  it('answers restart and update with 331, and stops the client on stop', async () => {
    const { client, session } = await online(keys.acme, credentials.acme, alice);
    for (const command of ['restart', 'update'])
      expectError(
        await alice('POST', `/tunnel_sessions/${session.id}/${command}`, {}),
        'commandUnsupportedOnSsh',
      );
    expect((await alice('POST', `/tunnel_sessions/${session.id}/stop`, {})).status).toBe(204);
    expectError(await alice('GET', `/tunnel_sessions/${session.id}`), 'notFound');
    const exit = await client.exited;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain('Session stopped through the API');
  });

  it('stops a client that runs no command (-N) by hanging up', async () => {
    const client = ssh(keys.acme, { forward: '0:localhost:8080', command: '-N' });
    await until(async () => (await sessions(alice)).length === 1, 10_000);
    const [session] = await sessions(alice);
    expect((await alice('POST', `/tunnel_sessions/${session?.id}/stop`, {})).status).toBe(204);
    expect((await client.exited).code).not.toBe(null);
    expect(await sessions(alice)).toEqual([]);
  });

  it('answers stop at once even when the client is frozen', async () => {
    const { client, session } = await online(keys.acme, credentials.acme, alice);
    client.kill('SIGSTOP');
    try {
      const started = Date.now();
      expect((await alice('POST', `/tunnel_sessions/${session.id}/stop`, {})).status).toBe(204);
      expect(Date.now() - started).toBeLessThan(1_000);
      expectError(await alice('GET', `/tunnel_sessions/${session.id}`), 'notFound');
    } finally {
      client.kill('SIGKILL');
      client.kill('SIGCONT');
    }
    await client.exited;
  });

  it('drops the session of a killed client at once', async () => {
    const { client, session } = await online(keys.acme, credentials.acme, alice);
    client.kill('SIGKILL');
    await until(gone(alice, session.id));
  });

  it('ends the sessions of a credential that is deleted', async () => {
    const { client, session } = await online(keys.globex, credentials.globex, carol);
    expect((await carol('DELETE', `/ssh_credentials/${credentials.globex}`)).status).toBe(204);
    expectError(await carol('GET', `/tunnel_sessions/${session.id}`), 'notFound');
    const exit = await client.exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain(`credential ${credentials.globex} was deleted`);
    // And the key no longer opens anything.
    expect((await ssh(keys.globex).exited).code).toBe(255);
  });

  it('keeps its host key beside the data file, so known_hosts stays valid across restarts', async () => {
    const dataFile = path.join(dir, 'state.json');
    const options = { accounts: ACCOUNTS, rateLimit: 'off', sshPort: 0, dataFile } as const;
    const first = await startSandbox(options);
    const key = await makeKeyPair(dir, 'persisted');
    await register(apiCaller(first.url, 'alice-key-1'), key.publicKey);
    await first.close();

    const parsed = ssh2.utils.parseKey(await readFile(hostKeyPath(dataFile), 'utf8'));
    if (parsed instanceof Error) throw parsed;
    const second = await startSandbox(options);
    try {
      const knownHosts = path.join(dir, 'known_hosts');
      const line = `${parsed.type} ${parsed.getPublicSSH().toString('base64')}`;
      await writeFile(knownHosts, `[127.0.0.1]:${second.sshPort} ${line}\n`);
      const client = ssh(key.privatePath, { port: second.sshPort, knownHosts, forward: '0:x:1' });
      await client.output('Forwarding tcp://');
      client.kill('SIGTERM');
      await client.exited;
    } finally {
      await second.close();
    }
  });

  it('starts with the CLI (--ssh-port) and tells connected clients when it shuts down', async () => {
    const child = spawn(
      process.execPath,
      [bin('sandbox-cli'), '--port', '0', '--ssh-port', '0', '--api-key', 'k'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let stdout = '';
    const ready = new Promise<{ url: string; port: number }>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const url = /Sandbox ready at (\S+)/.exec(stdout)?.[1];
        const port = /SSH gateway on 127\.0\.0\.1:(\d+)\n/.exec(stdout)?.[1];
        if (url && port) resolve({ url, port: Number(port) });
      }),
    );
    try {
      const { url, port } = await ready;
      const key = await makeKeyPair(dir, 'cli');
      await register(apiCaller(url, 'k'), key.publicKey);
      const client = ssh(key.privatePath, { port, forward: '0:localhost:8080' });
      await client.output('Forwarding tcp://');
      child.kill('SIGTERM');
      const exit = await client.exited;
      expect(exit.code).toBe(1);
      expect(exit.stderr).toContain('The sandbox is shutting down');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
