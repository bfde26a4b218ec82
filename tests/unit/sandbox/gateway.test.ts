import { execFileSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ASSIGNED_HOST_SUFFIX,
  decideBind,
  resolveBind,
  type Bind,
} from '../../../sandbox/gateway/binds.ts';
import { credentialForKey, verifyKeySignature } from '../../../sandbox/gateway/credentials.ts';
import { osOf } from '../../../sandbox/gateway/connection.ts';
import { generateHostKey, hostKeyPath, loadHostKey } from '../../../sandbox/gateway/host-key.ts';
import { Account } from '../../../sandbox/store/account.ts';
import { sessionIp } from '../../../sandbox/tunnel/protocol.ts';
import { removeDir, tempDir } from '../../support/openssh.ts';

const named = (host: string, port: number): Bind => ({ host, port, assigned: false });

describe('resolveBind', () => {
  it('assigns a hostname when -R names none, and a port for port 0', () => {
    for (const address of ['', '*', 'localhost', 'LOCALHOST', '0.0.0.0', '::', '127.0.0.1']) {
      const bind = resolveBind(address, 0);
      expect(bind.assigned).toBe(true);
      expect(bind.host).toMatch(
        new RegExp(`^[0-9a-f]{12}${ASSIGNED_HOST_SUFFIX.replace(/\./g, '\\.')}$`),
      );
      expect(bind.port).toBeGreaterThanOrEqual(10_000);
      expect(bind.port).toBeLessThanOrEqual(65_535);
    }
    expect(resolveBind('', 0).host).not.toBe(resolveBind('', 0).host);
  });

  it('keeps a named host (lower-cased) and a given port', () => {
    expect(resolveBind('App.Example.com', 80)).toEqual(named('app.example.com', 80));
    expect(resolveBind('203.0.113.7', 2222)).toEqual(named('203.0.113.7', 2222));
  });
});

describe('decideBind', () => {
  const assigned: Bind = { host: `abc${ASSIGNED_HOST_SUFFIX}`, port: 40_000, assigned: true };

  it('lets everything through without an ACL or with "*"', () => {
    for (const acl of [[], ['*']]) {
      expect(decideBind(acl, assigned).ok).toBe(true);
      expect(decideBind(acl, named('evil.com', 80)).ok).toBe(true);
    }
  });

  it('checks a named host as a domain and as an address', () => {
    const acl = ['bind:*.example.com', 'bind:tcp.example.net:2222', 'bind:203.0.113.7:22'];
    expect(decideBind(acl, named('app.example.com', 80)).ok).toBe(true);
    expect(decideBind(acl, named('tcp.example.net', 2222)).ok).toBe(true);
    expect(decideBind(acl, named('tcp.example.net', 2223)).ok).toBe(false);
    expect(decideBind(acl, named('203.0.113.7', 22)).ok).toBe(true);
    expect(decideBind(acl, named('example.com', 80)).ok).toBe(false);
    const refused = decideBind(acl, named('evil.com', 80));
    expect(refused).toMatchObject({ ok: false });
    if (!refused.ok) expect(refused.reason).toContain('evil.com is not permitted');
  });

  it('refuses an assigned hostname when the ACL names binds, and says how to name one', () => {
    const refused = decideBind(['bind:*.example.com'], assigned);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toContain('-R app.example.com:80:localhost:8080');
  });
});

describe('credentialForKey', () => {
  const pair = () => {
    const key = generateHostKey();
    return { private: key.privateKey, public: key.publicKey };
  };
  const blobOf = (publicKey: string) => Buffer.from(publicKey.split(' ')[1] ?? '', 'base64');
  const account = (name: string) => new Account(name, false, new Map(), new Set());
  const credential = (id: string, publicKey: string) => ({
    id,
    created_at: '2026-01-01T00:00:00.000Z',
    acl: [],
    owner_id: 'usr_x',
    public_key: `${publicKey} comment`,
  });

  it('finds the oldest credential of the one account that registered the key', () => {
    const key = pair().public;
    const acme = account('acme');
    const globex = account('globex');
    globex.collections.sshCredential.insert(credential('sshcr_other', pair().public));
    acme.collections.sshCredential.insert(credential('sshcr_first', key));
    acme.collections.sshCredential.insert(credential('sshcr_second', key));
    const found = credentialForKey([globex, acme], blobOf(key));
    expect(found.found && found.holder.credential.id).toBe('sshcr_first');
    expect(found.found && found.holder.account.name).toBe('acme');
    expect(credentialForKey([globex, acme], blobOf(pair().public))).toEqual({
      found: false,
      reason: 'unknown',
    });
  });

  it('refuses a key that two accounts registered', () => {
    const key = pair().public;
    const acme = account('acme');
    const globex = account('globex');
    acme.collections.sshCredential.insert(credential('sshcr_a', key));
    globex.collections.sshCredential.insert(credential('sshcr_b', key));
    expect(credentialForKey([acme, globex], blobOf(key))).toEqual({
      found: false,
      reason: 'ambiguous',
    });
  });

  it('verifies a signature only against the key that made it', () => {
    const signer = pair();
    const key = ssh2.utils.parseKey(signer.private);
    if (key instanceof Error) throw key;
    const data = Buffer.from('session id and request');
    const signature = key.sign(data);
    expect(verifyKeySignature(signer.public, data, signature, undefined)).toBe(true);
    expect(verifyKeySignature(pair().public, data, signature, undefined)).toBe(false);
    expect(verifyKeySignature(signer.public, Buffer.from('other'), signature, undefined)).toBe(
      false,
    );
  });
});

describe('osOf', () => {
  it.each([
    ['linux', ['OpenSSH_9.2p1 Debian-2+deb12u10', 'OpenSSH_8.9p1 Ubuntu-3ubuntu0.6']],
    ['windows', ['OpenSSH_for_Windows_8.1 ']],
    ['unknown', ['OpenSSH_9.6 ']],
  ])('reads %s from the SSH identifications that give it away', (os, identifications) => {
    for (const identification of identifications) expect(osOf(identification)).toBe(os);
  });
});

describe('sessionIp', () => {
  it('shows an IPv4-mapped IPv6 peer as its IPv4', () => {
    expect(sessionIp('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it.each(['192.0.2.7', '2001:db8::1', '::ffff:c000:207'])('leaves %s alone', (ip) => {
    expect(sessionIp(ip)).toBe(ip);
  });
});

describe('loadHostKey', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map(removeDir)));

  it('is new on every start without a data file', async () => {
    const [a, b] = await Promise.all([loadHostKey(), loadHostKey()]);
    expect(a.publicKey).toMatch(/^ssh-ed25519 [A-Za-z0-9+/]+=*$/);
    expect(a.publicKey).not.toBe(b.publicKey);
  });

  it('is made again when ssh2 wrote one it cannot read, and says so when it never can', () => {
    const good = ssh2.utils.generateKeyPairSync('ed25519');
    // Bytes cut from the fixed header: refused as ssh2 refuses the few keys it writes badly.
    const refused = { ...good, private: good.private.replace(/AAAA[A-Za-z0-9+/]{8}/, 'AAAA') };
    expect(ssh2.utils.parseKey(refused.private)).toBeInstanceOf(Error);
    const made = [refused, refused, good];
    expect(generateHostKey(() => made.shift() ?? good).privateKey).toBe(good.private);
    expect(made).toEqual([]);
    expect(() => generateHostKey(() => refused)).toThrow('ssh2 makes no SSH host key it can read');
  });

  it('is kept beside the data file (mode 0600) and reused on the next start', async () => {
    const dir = await tempDir('burrow-host-key-');
    dirs.push(dir);
    const dataFile = path.join(dir, 'state.json');
    const first = await loadHostKey(dataFile);
    const file = hostKeyPath(dataFile);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe(first.privateKey);
    expect(await loadHostKey(dataFile)).toEqual(first);
  });

  it('refuses a key file that is a FIFO or too big, saying why, without waiting on it', async () => {
    const dir = await tempDir('burrow-host-key-');
    dirs.push(dir);
    const fifo = path.join(dir, 'fifo.json');
    execFileSync('mkfifo', [hostKeyPath(fifo)]);
    await expect(loadHostKey(fifo)).rejects.toThrow(
      `cannot read the SSH host key ${hostKeyPath(fifo)}: it is not a regular file`,
    );
    const big = path.join(dir, 'big.json');
    await writeFile(hostKeyPath(big), 'x'.repeat(1024 * 1024));
    await expect(loadHostKey(big)).rejects.toThrow(/: it is over 16,384 bytes$/);
  });
});
