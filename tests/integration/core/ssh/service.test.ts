/**
 * core/ssh end to end: keys generated and signed through the API client by a real sandbox over
 * loopback, saved to a temporary home, then used by OpenSSH's own tools: ssh-keygen reads them,
 * a real sshd lets the principal in (and no one else), a real ssh-agent holds the certificate,
 * and ssh reads the Include file.
 */
import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SshError, type SshService } from '../../../../core/ssh/service.ts';
import type { GenerateRequest } from '../../../../shared/app/ssh/requests.ts';
import type { GenerateProgress, SignResult } from '../../../../shared/app/ssh/results.ts';
import {
  currentUser,
  describeCertificate,
  makeKeyPair,
  parseCertificateListing,
  removeDir,
  sshdInstalled,
  SSHD,
  sshEffectiveConfig,
  sshKeygen,
  sshLogin,
  sshWithConfig,
  startAgent,
  startCertificateBlindAgent,
  startSshd,
  tempDir,
  type Agent,
  type Sshd,
} from '../../../support/openssh.ts';
import { startSshWorld, type SshWorld } from './support.ts';
import { rejection as rejectionOf } from '../../../support/rejection.ts';

const run = promisify(execFile);
const HOUR = 3_600_000;

let world: SshWorld | undefined;
let home: string;
let caId: string;
let service: SshService;
/** The service's wall clock: tests move it to renew and to see reminders. */
let clock = Date.now();

beforeAll(async () => {
  world = await startSshWorld('burrow-ssh-core', { now: () => clock });
  ({ home, caId, service } = world);
});

afterAll(() => world?.close());

const ssh = (file: string) => path.join(home, '.ssh', file);
const mode = async (file: string) => (await stat(file)).mode & 0o777;

function generate(
  name: string,
  over: Partial<GenerateRequest> = {},
  onProgress?: (p: GenerateProgress) => void,
) {
  return service.generateKeyAndCertificate(
    {
      target: { name },
      certificate: { caId, principals: [currentUser], validity: { preset: '1h' } },
      ...over,
    },
    onProgress,
  );
}

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, SshError);

describe('a new key and certificate', () => {
  let made: SignResult;
  const steps: string[] = [];

  beforeAll(async () => {
    made = await generate('id_burrow', {}, (p) => steps.push(p.step));
  });

  it('lands as NAME, NAME.pub and NAME-cert.pub in ~/.ssh, created 0700, with the right modes', async () => {
    expect(steps).toEqual(['generating', 'signing', 'saving']);
    expect(await mode(path.join(home, '.ssh'))).toBe(0o700);
    expect(made.files.map((f) => [path.basename(f.path), f.role])).toEqual([
      ['id_burrow', 'private-key'],
      ['id_burrow.pub', 'public-key'],
      ['id_burrow-cert.pub', 'certificate'],
    ]);
    expect([
      await mode(ssh('id_burrow')),
      await mode(ssh('id_burrow.pub')),
      await mode(ssh('id_burrow-cert.pub')),
    ]).toEqual([0o600, 0o644, 0o644]);
    expect(made.warnings).toEqual([]);
    expect(made.sshCommand?.text).toBe(
      `ssh -i ${ssh('id_burrow')} -o CertificateFile=${ssh('id_burrow-cert.pub')} ${currentUser}@HOST`,
    );
    const to = service.sshCommand({ savedId: made.saved.id, host: 'db.example.com', port: 2222 });
    expect(to?.argv.slice(-3)).toEqual(['-p', '2222', `${currentUser}@db.example.com`]);
    const bad = await rejection(
      (async () => service.sshCommand({ savedId: made.saved.id, host: 'x; rm -rf ~' }))(),
    );
    expect(bad.message).toMatch(/"host" may only contain/);
  });

  it('ssh-keygen -y recovers the public key from the private key file', async () => {
    const recovered = await sshKeygen('-y', '-f', ssh('id_burrow'));
    const pub = await readFile(ssh('id_burrow.pub'), 'utf8');
    expect(recovered.split(' ').slice(0, 2)).toEqual(pub.split(' ').slice(0, 2));
    expect(pub.trim().endsWith(' id_burrow')).toBe(true);
  });

  it('decodeCertificate says what ssh-keygen -L says', async () => {
    const text = await readFile(ssh('id_burrow-cert.pub'), 'utf8');
    const listing = parseCertificateListing(await describeCertificate(home, text.trim()));
    const decoded = await service.decodeCertificate({ path: ssh('id_burrow-cert.pub') });
    expect(await service.decodeCertificate({ text })).toEqual(decoded);
    expect({
      certType: decoded.certType,
      kind: decoded.kind,
      publicKey: decoded.keyFingerprint,
      caFingerprint: decoded.caFingerprint,
      signatureAlgorithm: decoded.signatureAlgorithm,
      keyId: decoded.keyId,
      serial: BigInt(decoded.serial),
      validAfter: decoded.validAfter,
      validBefore: decoded.validBefore,
      principals: decoded.principals,
      criticalOptions: decoded.criticalOptions,
      extensions: decoded.extensions,
    }).toEqual(listing);
    expect(decoded).toMatchObject({
      kind: 'user',
      keyType: 'ed25519',
      principals: [currentUser],
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
      validAfter: made.saved.validAfter,
      validBefore: made.saved.validUntil,
    });
    expect(Date.parse(made.saved.validUntil) - Date.parse(made.saved.validAfter)).toBe(HOUR);
  });

  it('is remembered with paths and ids, and no secret', async () => {
    const [saved] = service.listSaved().filter((s) => s.id === made.saved.id);
    expect(saved).toEqual(made.saved);
    const stored = JSON.stringify(service.listSaved());
    expect(stored).not.toContain('PRIVATE KEY');
    expect(saved?.certificateId).toMatch(/^sucrt_/);
  });

  it('never overwrites without the choice, and says which files are there', async () => {
    const before = await readFile(ssh('id_burrow'), 'utf8');
    const existing = await service.existingFiles({ name: 'id_burrow' });
    expect(existing.files.map((f) => f.exists)).toEqual([true, true, true]);
    const error = await rejection(generate('id_burrow'));
    expect(error.code).toBe('file-exists');
    expect(error.paths).toEqual([
      ssh('id_burrow'),
      ssh('id_burrow.pub'),
      ssh('id_burrow-cert.pub'),
    ]);
    expect(await readFile(ssh('id_burrow'), 'utf8')).toBe(before);
  });

  it('refuses bad names and bad choices with a message that names the field', async () => {
    const bad = await rejection(generate('../outside'));
    expect(bad.code).toBe('invalid-name');
    expect(bad.message).toMatch(/"target.name"/);
    const noCa = await rejection(
      service.generateKeyAndCertificate({ target: { name: 'x' }, certificate: { caId: 'ipp_1' } }),
    );
    expect(noCa.message).toMatch(/"certificate.caId" must be an id starting with "sshca_"/);
    const rsa = await rejection(generate('x', { key: { type: 'rsa', bits: 1024 } as never }));
    expect(rsa.code).toBe('invalid-input');
  });
});

describe('every key type and a passphrase', () => {
  it.each([
    { type: 'ecdsa', curve: 'p384' },
    { type: 'rsa', bits: 3072 },
  ] as const)('$type: signed and readable by ssh-keygen with its passphrase', async (key) => {
    const name = `id_${key.type}`;
    const made = await generate(name, { key, passphrase: 'open sesame' });
    const recovered = await sshKeygen('-y', '-P', 'open sesame', '-f', ssh(name));
    expect(recovered.split(' ')[1]).toBe(made.saved.publicKey.split(' ')[1]);
    expect(made.certificate.keyType).toBe(key.type);
  });
});

describe('reminders', () => {
  it('follow a lead time the person sets, and stop when the certificate is forgotten', async () => {
    const made = await generate('reminded');
    const until = Date.parse(made.saved.validUntil);
    const ids = (at: number) => service.dueForRenewal(at).map((d) => d.savedId);
    expect(service.setLeadTime(made.saved.id, 300).leadTimeSeconds).toBe(300);
    expect(ids(until - 301_000)).not.toContain(made.saved.id);
    expect(
      service.dueForRenewal(until - 300_000).find((d) => d.savedId === made.saved.id)?.reason,
    ).toBe('lead-time');
    expect(() => service.setLeadTime(made.saved.id, -5)).toThrow(
      /whole number of seconds above zero/,
    );
    service.forget(made.saved.id);
    expect(ids(until)).not.toContain(made.saved.id);
    expect(service.listSaved().map((s) => s.id)).not.toContain(made.saved.id);
    // Forgetting is Burrow's memory only: the files stay.
    expect(await mode(ssh('reminded-cert.pub'))).toBe(0o644);
    expect(() => service.forget(made.saved.id)).toThrow(/no saved certificate with this id/);
  });
});

describe('a host certificate with no principals', () => {
  it('warns that it is valid for any host, and ssh-keygen -L reads a host certificate', async () => {
    const made = await generate('host_key', {
      certificate: { caId, kind: 'host', validity: { seconds: 7200 } },
    });
    expect(made.warnings).toEqual([
      'No principals: this host certificate is valid for any host name.',
    ]);
    const text = (await readFile(ssh('host_key-cert.pub'), 'utf8')).trim();
    const listing = parseCertificateListing(await describeCertificate(home, text));
    expect(listing.kind).toBe('host');
    expect(listing.principals).toEqual([]);
    expect(made.certificate.extensions).toEqual({});
    expect(made.sshCommand).toBeNull();
  });

  it('warns that a user certificate with no principals lets its holder in as anyone', async () => {
    const made = await generate('anyone', { certificate: { caId } });
    expect(made.warnings[0]).toMatch(/log in as any user/);
  });
});

describe('signing an existing key', () => {
  let dir: string;
  beforeEach(async () => void (dir = await tempDir('burrow-existing-')));
  afterEach(() => removeDir(dir));

  it('signs a .pub chosen by the person and saves the certificate beside it', async () => {
    const pair = await makeKeyPair(dir, 'their_key');
    const made = await service.signExistingKey({
      publicKeyPath: `${pair.privatePath}.pub`,
      certificate: { caId, principals: [currentUser] },
    });
    expect(made.saved.certificatePath).toBe(`${pair.privatePath}-cert.pub`);
    expect(made.saved.privateKeyPath).toBe(pair.privatePath);
    expect(made.certificate.publicKey).toBe(pair.publicKey.split(' ').slice(0, 2).join(' '));
    expect(await mode(made.saved.certificatePath)).toBe(0o644);
  });

  it('asks before replacing a certificate, and until the answer no certificate is created in the account', async () => {
    const pair = await makeKeyPair(dir, 'twice');
    const request = {
      publicKeyPath: `${pair.privatePath}.pub`,
      certificate: { caId, principals: [currentUser] },
    };
    await service.signExistingKey(request);
    const count = async () => (await world!.client.listAll('sshUserCertificates.list')).length;
    const before = await count();
    expect(await rejection(service.signExistingKey(request))).toMatchObject({
      code: 'file-exists',
      paths: [`${pair.privatePath}-cert.pub`],
    });
    expect(await count()).toBe(before);
    await service.signExistingKey({ ...request, overwrite: true });
    expect(await count()).toBe(before + 1);
  });

  it('refuses a private key, a certificate, garbage, a missing file and a FIFO, saying which', async () => {
    const pair = await makeKeyPair(dir, 'k');
    await writeFile(path.join(dir, 'private.pub'), await readFile(pair.privatePath));
    await writeFile(path.join(dir, 'cert.pub'), await readFile(ssh('id_burrow-cert.pub')));
    await writeFile(path.join(dir, 'junk.pub'), 'hello world\n');
    // A key file named just ".pub": its private key would be the folder itself.
    await writeFile(path.join(dir, '.pub'), `${pair.publicKey}\n`);
    const sign = (publicKeyPath: string) =>
      rejection(service.signExistingKey({ publicKeyPath, certificate: { caId } }));
    expect((await sign(pair.privatePath)).message).toMatch(/not a \.pub file/);
    expect((await sign(path.join(dir, 'private.pub'))).message).toMatch(/holds a private key/);
    expect((await sign(path.join(dir, 'cert.pub'))).message).toMatch(/is a certificate/);
    expect((await sign(path.join(dir, 'junk.pub'))).message).toMatch(/not an OpenSSH public key/);
    expect((await sign(path.join(dir, '.pub'))).message).toMatch(/no name before "\.pub"/);
    expect((await sign(path.join(dir, 'none.pub'))).message).toMatch(/does not exist/);
    await run('mkfifo', [path.join(dir, 'fifo.pub')]);
    expect((await sign(path.join(dir, 'fifo.pub'))).message).toMatch(/is not a regular file/);
  });
});

describe.skipIf(process.platform === 'win32')('paths of another system', () => {
  it('refuses a Windows folder or share on Linux and macOS, naming the field and the path, and writes nothing', async () => {
    const folder = `C:\\burrow-test-${process.pid}\\.ssh`;
    const share = `\\\\srv-${process.pid}\\share`;
    try {
      const error = await rejection(
        service.generateKeyAndCertificate({
          target: { name: 'id_windows', folder },
          certificate: { caId, principals: [currentUser] },
        }),
      );
      expect(error).toMatchObject({ code: 'invalid-input', field: 'target.folder' });
      expect(error.message).toContain(folder);
      const fieldOf = async (promise: Promise<unknown>) => (await rejection(promise)).field;
      expect(await fieldOf(service.existingFiles({ folder: share, name: 'id' }))).toBe('folder');
      expect(
        await fieldOf(
          service.signExistingKey({ publicKeyPath: `${share}\\id.pub`, certificate: { caId } }),
        ),
      ).toBe('publicKeyPath');
      expect(await fieldOf(service.decodeCertificate({ path: `${share}\\id-cert.pub` }))).toBe(
        'path',
      );
      // Under the folder Burrow was started from, nothing.
      await expect(stat(path.resolve(folder))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await removeDir(path.resolve(folder));
      await removeDir(path.resolve(share));
    }
  });
});

describe('renewing', () => {
  it('re-signs the same key for a window of the same length from now, and replaces the file', async () => {
    const made = await generate('renew_me');
    const keyBefore = await readFile(ssh('renew_me'), 'utf8');
    const start = clock;
    expect(service.dueForRenewal(start + 39 * 60_000).map((d) => d.savedId)).not.toContain(
      made.saved.id,
    );
    const due = service.dueForRenewal(start + 41 * 60_000).find((d) => d.savedId === made.saved.id);
    expect(due?.reason).toBe('two-thirds');

    clock = start + 41 * 60_000;
    try {
      const renewed = await service.renew(made.saved.id);
      expect(renewed.saved.id).toBe(made.saved.id);
      expect(renewed.saved.certificateId).not.toBe(made.saved.certificateId);
      expect(Date.parse(renewed.saved.validAfter)).toBe(Math.floor(clock / 1000) * 1000);
      expect(Date.parse(renewed.saved.validUntil) - Date.parse(renewed.saved.validAfter)).toBe(
        HOUR,
      );
      expect(renewed.certificate.publicKey).toBe(made.certificate.publicKey);
      expect(renewed.certificate.principals).toEqual([currentUser]);
      expect(await readFile(ssh('renew_me'), 'utf8')).toBe(keyBefore);
      const onDisk = await service.decodeCertificate({ path: ssh('renew_me-cert.pub') });
      expect(onDisk.validBefore).toBe(renewed.saved.validUntil);
      expect(await mode(ssh('renew_me-cert.pub'))).toBe(0o644);
      // No reminder right after a renewal.
      expect(service.dueForRenewal(clock).map((d) => d.savedId)).not.toContain(made.saved.id);
    } finally {
      clock = Date.now();
    }
  });
});

const sshdMissing = sshdInstalled ? undefined : `${SSHD} is not installed (.ci/run installs it)`;

describe.skipIf(sshdMissing !== undefined)('with real OpenSSH', () => {
  let sshd: Sshd;
  let agent: Agent | undefined;

  beforeAll(async () => {
    const trust = await service.trustLines({ caId });
    sshd = await startSshd(home, { trustedUserCaKeys: [trust.trustedUserCaKeysLine] });
  });
  afterAll(() => sshd?.close());
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it('sshd (trusting the CA by its trust line) lets the principal in, and no one else', async () => {
    const ok = await sshLogin(home, {
      port: sshd.port,
      user: currentUser,
      identityFile: ssh('id_burrow'),
      certificateFile: ssh('id_burrow-cert.pub'),
    });
    expect(ok, sshd.log()).toMatchObject({ code: 0, stdout: 'ok\n' });

    await generate('other_principal', { certificate: { caId, principals: ['someone-else'] } });
    const refused = await sshLogin(home, {
      port: sshd.port,
      user: currentUser,
      identityFile: ssh('other_principal'),
      certificateFile: ssh('other_principal-cert.pub'),
    });
    expect(refused.code).toBe(255);
    expect(refused.stderr).toMatch(/Permission denied/);
  });

  it('runs the force-command of the certificate', async () => {
    await generate('forced', {
      certificate: {
        caId,
        principals: [currentUser],
        criticalOptions: { 'force-command': 'echo forced' },
      },
    });
    const login = await sshLogin(home, {
      port: sshd.port,
      user: currentUser,
      identityFile: ssh('forced'),
      certificateFile: ssh('forced-cert.pub'),
      command: 'echo asked',
    });
    expect(login).toMatchObject({ code: 0, stdout: 'forced\n' });
  });

  it('the Include file works with ssh -G, and for logging in', async () => {
    const saved = service.listSaved().find((s) => s.certificatePath === ssh('id_burrow-cert.pub'));
    const block = await service.writeConfigBlock({
      savedId: saved?.id ?? '',
      hostAlias: 'burrow-test',
      hostName: '127.0.0.1',
      port: sshd.port,
    });
    expect(block.path).toBe(ssh('burrow/burrow-test.conf'));
    expect(await mode(block.path)).toBe(0o644);
    const personal = path.join(home, 'personal_config');
    await writeFile(personal, `${block.includeLine}\n\nHost *\n    ServerAliveInterval 30\n`);
    const options = await sshEffectiveConfig(personal, 'burrow-test');
    expect(options.get('hostname')).toEqual(['127.0.0.1']);
    expect(options.get('port')).toEqual([String(sshd.port)]);
    expect(options.get('user')).toEqual([currentUser]);
    expect(options.get('identityfile')).toEqual([ssh('id_burrow')]);
    expect(options.get('certificatefile')).toEqual([ssh('id_burrow-cert.pub')]);
    expect(await sshWithConfig(personal, 'burrow-test', 'echo via-config')).toMatchObject({
      code: 0,
      stdout: 'via-config\n',
    });
  });

  it('ssh-add puts key and certificate in a real ssh-agent for the certificate’s remaining life', async () => {
    agent = await startAgent(home);
    const saved = service.listSaved().find((s) => s.certificatePath === ssh('id_burrow-cert.pub'));
    const added = await service.addToAgent({ savedId: saved?.id ?? '', socket: agent.socket });
    expect(added.certificateHeld).toBe(true);
    expect(added.lifetimeSeconds).toBeGreaterThan(0);
    expect(added.lifetimeSeconds).toBeLessThanOrEqual(3600);
    // In words, as the CLI prints it: "for 59 minutes", not a count of seconds.
    expect(added.message).toMatch(/ssh-agent for \d+ minutes?, until the certificate expires\.$/);
    const cert = (await readFile(ssh('id_burrow-cert.pub'), 'utf8'))
      .split(' ')
      .slice(0, 2)
      .join(' ');
    expect((await agent.list()).some((line) => line.startsWith(cert))).toBe(true);
  });

  it('adds a passphrase-protected key with its passphrase, and refuses a wrong one without hanging', async () => {
    agent = await startAgent(home);
    const made = await generate('locked', { passphrase: 'let me in' });
    const wrong = await rejection(
      service.addToAgent({ savedId: made.saved.id, socket: agent.socket, passphrase: 'nope' }),
    );
    expect(wrong.code).toBe('agent-failed');
    expect(await agent.list()).toEqual([]);
    const added = await service.addToAgent({
      savedId: made.saved.id,
      socket: agent.socket,
      passphrase: 'let me in',
    });
    expect(added.certificateHeld).toBe(true);
    expect(await agent.list()).toHaveLength(2);
  });

  it('says so when the agent took the key but cannot hold the certificate', async () => {
    const blind = await startCertificateBlindAgent(home);
    try {
      const saved = service
        .listSaved()
        .find((s) => s.certificatePath === ssh('id_burrow-cert.pub'));
      const added = await service.addToAgent({ savedId: saved?.id ?? '', socket: blind.socket });
      expect(added.certificateHeld).toBe(false);
      expect(added.message).toMatch(
        /did not keep the certificate: it is one that cannot hold certificates/,
      );
    } finally {
      await blind.close();
    }
  });

  it('says so when there is no agent', async () => {
    const saved = service.listSaved()[0];
    const error = await rejection(
      service.addToAgent({ savedId: saved?.id ?? '', socket: path.join(home, 'no-agent.sock') }),
    );
    expect(error.code).toBe('agent-unavailable');
  });
});
