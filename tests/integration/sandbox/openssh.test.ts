/**
 * The sandbox's SSH certificates against real OpenSSH: `ssh-keygen -L` reads back exactly what
 * the API answered, sshd lets the holder of a user certificate in (and no one else), and ssh
 * trusts a host that presents a host certificate of a CA in its known_hosts.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { sshPublicBlob } from '../../../sandbox/ssh/keys.ts';
import {
  currentUser,
  describeCertificate,
  fingerprint,
  makeKeyPair,
  parseCertificateListing,
  removeDir,
  sshdInstalled,
  SSHD,
  sshLogin,
  startSshd,
  tempDir,
  type KeyType,
} from '../../support/openssh.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { expectError } from './support.ts';

type CaSpec = {
  readonly name: string;
  readonly body: Record<string, unknown>;
  /** What ssh-keygen names the CA's signature algorithm. */
  readonly signature: string;
};

/** Every key a CA can have. RSA CAs sign with SHA-512: OpenSSH refuses SHA-1 by default. */
const CAS: readonly CaSpec[] = [
  { name: 'ed25519', body: { private_key_type: 'ed25519' }, signature: 'ssh-ed25519' },
  {
    name: 'ecdsa p256',
    body: { private_key_type: 'ecdsa', elliptic_curve: 'p256' },
    signature: 'ecdsa-sha2-nistp256',
  },
  {
    name: 'ecdsa p384',
    body: { private_key_type: 'ecdsa', elliptic_curve: 'p384' },
    signature: 'ecdsa-sha2-nistp384',
  },
  {
    name: 'ecdsa p521',
    body: { private_key_type: 'ecdsa', elliptic_curve: 'p521' },
    signature: 'ecdsa-sha2-nistp521',
  },
  {
    name: 'rsa 2048',
    body: { private_key_type: 'rsa', key_size: 2048 },
    signature: 'rsa-sha2-512',
  },
  {
    name: 'rsa 4096',
    body: { private_key_type: 'rsa', key_size: 4096 },
    signature: 'rsa-sha2-512',
  },
];

/** The keys certificates are made for; each CA signs one of them, so every pairing type shows up. */
const SUBJECTS: readonly { type: KeyType; bits?: number; certType: string }[] = [
  { type: 'ed25519', certType: 'ssh-ed25519-cert-v01@openssh.com' },
  { type: 'ecdsa', bits: 256, certType: 'ecdsa-sha2-nistp256-cert-v01@openssh.com' },
  { type: 'rsa', bits: 2048, certType: 'ssh-rsa-cert-v01@openssh.com' },
  { type: 'ecdsa', bits: 384, certType: 'ecdsa-sha2-nistp384-cert-v01@openssh.com' },
  { type: 'ecdsa', bits: 521, certType: 'ecdsa-sha2-nistp521-cert-v01@openssh.com' },
  { type: 'ed25519', certType: 'ssh-ed25519-cert-v01@openssh.com' },
];

type Ca = { id: string; public_key: string; spec: CaSpec };
type Subject = { privatePath: string; publicKey: string; certType: string };

let sandbox: Sandbox;
let api: (method: string, path: string, body?: unknown) => Promise<ApiReply>;
let dir: string;
let cas: Ca[];
/** A CA no sshd and no known_hosts of these tests trusts. */
let foreignCa: Ca;
let subjects: Subject[];

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** What the API answers for a time it was given: rounded down to whole seconds, in UTC. */
const wholeSeconds = (ms: number) => iso(Math.floor(ms / 1000) * 1000);
/** The documented serial: the first 8 bytes of SHA-256 of the certificate's id. */
const serialOf = (id: string) => createHash('sha256').update(id).digest().readBigUInt64BE(0);

async function created(reply: Promise<ApiReply>) {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

const newCa = async (spec: CaSpec): Promise<Ca> => ({
  ...(await created(api('POST', '/ssh_certificate_authorities', spec.body))),
  spec,
});

const userCertificate = (ca: Ca, subject: Subject, body: Record<string, unknown> = {}) =>
  created(
    api('POST', '/ssh_user_certificates', {
      ssh_certificate_authority_id: ca.id,
      public_key: subject.publicKey,
      ...body,
    }),
  );

const hostCertificate = (ca: Ca, subject: Subject, body: Record<string, unknown> = {}) =>
  created(
    api('POST', '/ssh_host_certificates', {
      ssh_certificate_authority_id: ca.id,
      public_key: subject.publicKey,
      ...body,
    }),
  );

let certFiles = 0;
async function certificateFile(certificate: string): Promise<string> {
  const file = `${dir}/api-cert-${++certFiles}.pub`;
  await writeFile(file, `${certificate}\n`);
  return file;
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'openssh-key', rateLimit: 'off' });
  api = apiCaller(sandbox.url, 'openssh-key');
  dir = await tempDir('burrow-openssh-');
  // Key generation is the slow part (above all the RSA-4096 CA): all of it at once.
  [cas, foreignCa, subjects] = await Promise.all([
    Promise.all(CAS.map(newCa)),
    newCa({ name: 'foreign ed25519', body: {}, signature: 'ssh-ed25519' }),
    Promise.all(
      SUBJECTS.map(async (s, i) => ({
        ...(await makeKeyPair(dir, `subject_${i}`, s.type, s.bits)),
        certType: s.certType,
      })),
    ),
  ]);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) await removeDir(dir);
});

const subjectFor = (i: number): Subject => {
  const s = subjects[i % subjects.length];
  if (!s) throw new Error('no subject key');
  return s;
};

/** ssh-keygen -L of an API certificate, next to the fields the API answered with. */
async function expectListingMatches(cert: Record<string, unknown> & { id: string }, ca: Ca) {
  const certificate = String(cert['certificate']);
  const subject = String(cert['public_key']);
  const listing = parseCertificateListing(await describeCertificate(dir, certificate));
  const kind = cert.id.startsWith('sucrt_') ? 'user' : 'host';
  const [certType] = certificate.split(' ');
  expect(listing).toEqual({
    certType,
    kind,
    publicKey: await fingerprint(dir, subject),
    caFingerprint: await fingerprint(dir, ca.public_key),
    signatureAlgorithm: ca.spec.signature,
    // Documented choices (docs/sandbox.md): the key id is the certificate's id, the serial is
    // derived from it.
    keyId: cert.id,
    serial: serialOf(cert.id),
    validAfter: cert['valid_after'],
    validBefore: cert['valid_until'],
    principals: cert['principals'],
    criticalOptions: kind === 'user' ? cert['critical_options'] : {},
    extensions: kind === 'user' ? cert['extensions'] : {},
  });
  const algorithmOf = { ed25519: 'ssh-ed25519-', ecdsa: 'ecdsa-sha2-nistp', rsa: 'ssh-rsa-' };
  expect(
    listing.certType.startsWith(algorithmOf[cert['key_type'] as keyof typeof algorithmOf]),
  ).toBe(true);
  // The certificate line's comment is the id too, and GET answers what create did.
  expect(certificate.split(' ')[2]).toBe(cert.id);
  const path = kind === 'user' ? 'ssh_user_certificates' : 'ssh_host_certificates';
  expect((await api('GET', `/${path}/${cert.id}`)).body).toEqual(cert);
  return listing;
}

describe('ssh-keygen -L prints what the API returned', () => {
  it.each(CAS.map((spec, i) => [spec.name, i] as const))(
    '%s CA: a user certificate with every field set, and a host certificate',
    async (_name, i) => {
      const ca = cas[i] as Ca;
      const subject = subjectFor(i);
      // Fractions of a second and an offset: the API answers in whole seconds, in UTC, as the
      // certificate holds them.
      const after = Date.parse('2030-01-01T00:00:00Z') + i * HOUR + 750;
      const user = await userCertificate(ca, subject, {
        principals: [currentUser, 'deploy', 'name with spaces'],
        critical_options: {
          'force-command': 'echo "forced: $SSH_ORIGINAL_COMMAND"',
          'source-address': '127.0.0.1/32,::1',
        },
        extensions: {
          'permit-pty': '',
          'permit-port-forwarding': '',
          'no-touch-required': '',
          'custom@example.com': 'some value',
          'flag@example.com': '',
        },
        valid_after: `${iso(after + HOUR).slice(0, -1)}+01:00`,
        valid_until: iso(after + 30 * 24 * HOUR + 999),
      });
      expect(user).toMatchObject({
        valid_after: wholeSeconds(after),
        valid_until: wholeSeconds(after + 30 * 24 * HOUR + 999),
      });
      const listing = await expectListingMatches(user, ca);
      expect(listing.certType).toBe(subject.certType);

      const host = await hostCertificate(ca, subject, {
        principals: ['127.0.0.1', 'host.example.com'],
      });
      await expectListingMatches(host, ca);
    },
  );

  it('defaults: now for 24 h, permit-pty and permit-user-rc for users; a year and nothing for hosts', async () => {
    const ca = cas[0] as Ca;
    const before = Math.floor(Date.now() / 1000) * 1000;
    const user = await userCertificate(ca, subjectFor(0));
    const host = await hostCertificate(ca, subjectFor(1));
    const after = Date.now();
    for (const [cert, validity] of [
      [user, 24 * HOUR],
      [host, 365 * 24 * HOUR],
    ] as const) {
      const start = Date.parse(cert.valid_after);
      expect(start).toBeGreaterThanOrEqual(before);
      expect(start).toBeLessThanOrEqual(after);
      expect(start % 1000).toBe(0);
      expect(Date.parse(cert.valid_until) - start).toBe(validity);
      expect(cert.principals).toEqual([]);
      await expectListingMatches(cert, ca);
    }
    expect(user).toMatchObject({
      critical_options: {},
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
    });
  });

  it('a certificate valid from the epoch: ssh-keygen prints "before", the API the epoch', async () => {
    const ca = cas[0] as Ca;
    const cert = await userCertificate(ca, subjectFor(0), {
      valid_after: '1970-01-01T00:00:00Z',
      valid_until: '2040-01-01T00:00:00Z',
    });
    expect(cert.valid_after).toBe('1970-01-01T00:00:00.000Z');
    const listing = parseCertificateListing(await describeCertificate(dir, cert.certificate));
    expect(listing.validAfter).toBeUndefined();
    expect(listing.validBefore).toBe(cert.valid_until);
  });
});

const sshdMissing = sshdInstalled ? undefined : `${SSHD} is not installed (.ci/run installs it)`;
if (sshdMissing) console.warn(`skipping the sshd and ssh tests: ${sshdMissing}`);

describe.skipIf(sshdMissing !== undefined)('sshd trusts user certificates of the CA', () => {
  it.each(CAS.map((spec, i) => [spec.name, i] as const))(
    '%s CA: the holder logs in as a principal; other principals, other CAs, expired, not yet valid, other sources are refused; force-command runs',
    async (_name, i) => {
      const ca = cas[i] as Ca;
      const subject = subjectFor(i);
      const now = Date.now();
      const certs = {
        ok: await userCertificate(ca, subject, { principals: ['nobody-else', currentUser] }),
        otherPrincipal: await userCertificate(ca, subject, { principals: ['nobody-else'] }),
        otherCa: await userCertificate(foreignCa, subject, { principals: [currentUser] }),
        expired: await userCertificate(ca, subject, {
          principals: [currentUser],
          valid_after: iso(now - 2 * HOUR),
          valid_until: iso(now - HOUR),
        }),
        notYetValid: await userCertificate(ca, subject, {
          principals: [currentUser],
          valid_after: iso(now + HOUR),
        }),
        forced: await userCertificate(ca, subject, {
          principals: [currentUser],
          critical_options: {
            'force-command': 'echo "forced: $SSH_ORIGINAL_COMMAND"',
            'source-address': '127.0.0.0/8,::1',
          },
        }),
        otherSource: await userCertificate(ca, subject, {
          principals: [currentUser],
          critical_options: { 'source-address': '192.0.2.0/24' },
        }),
      };
      const sshd = await startSshd(dir, { trustedUserCaKeys: [ca.public_key] });
      try {
        const login = async (cert: { certificate: string }) =>
          sshLogin(dir, {
            port: sshd.port,
            user: currentUser,
            identityFile: subject.privatePath,
            certificateFile: await certificateFile(cert.certificate),
            command: 'whoami',
          });
        const [ok, otherPrincipal, otherCa, expired, notYetValid, forced, otherSource] =
          await Promise.all([
            login(certs.ok),
            login(certs.otherPrincipal),
            login(certs.otherCa),
            login(certs.expired),
            login(certs.notYetValid),
            login(certs.forced),
            login(certs.otherSource),
          ]);
        const log = () => sshd.log();
        expect(ok, log()).toMatchObject({ code: 0, stdout: `${currentUser}\n` });
        expect(forced, log()).toMatchObject({ code: 0, stdout: 'forced: whoami\n' });
        for (const refused of [otherPrincipal, otherCa, expired, notYetValid, otherSource]) {
          expect(refused.code, log()).toBe(255);
          expect(refused.stderr).toContain('Permission denied (publickey)');
          expect(refused.stdout).toBe('');
        }
        // sshd says why, for the refusals it logs at this level.
        expect(log()).toContain('Certificate invalid: name is not a listed principal');
        expect(log()).toContain('Certificate invalid: expired');
        expect(log()).toContain('Certificate invalid: not yet valid');
        expect(log()).toMatch(/not from a permitted source address/);
      } finally {
        await sshd.close();
      }
    },
  );
});

describe.skipIf(sshdMissing !== undefined)('ssh trusts host certificates of the CA', () => {
  // Host CAs of three families; the host key differs from the CA's type where it can.
  it.each([
    ['ed25519', 0, 2],
    ['ecdsa p384', 2, 0],
    ['rsa 4096', 5, 1],
  ] as const)(
    '%s CA: @cert-authority for the CA lets the client in; for another CA, or a certificate for another name, it does not',
    async (_name, caIndex, subjectIndex) => {
      const ca = cas[caIndex] as Ca;
      const hostKey = subjectFor(subjectIndex);
      const userCa = cas[0] as Ca;
      const client = subjectFor(3);
      const [hostCert, wrongNameCert, userCert] = await Promise.all([
        hostCertificate(ca, hostKey, { principals: ['127.0.0.1'] }),
        hostCertificate(ca, hostKey, { principals: ['other.example.com'] }),
        userCertificate(userCa, client, { principals: [currentUser] }),
      ]);
      const certificateFile_ = await certificateFile(userCert.certificate);
      const [sshd, wrongNameSshd] = await Promise.all([
        startSshd(dir, {
          trustedUserCaKeys: [userCa.public_key],
          hostKey,
          hostCertificate: hostCert.certificate,
        }),
        startSshd(dir, {
          trustedUserCaKeys: [userCa.public_key],
          hostKey,
          hostCertificate: wrongNameCert.certificate,
        }),
      ]);
      try {
        const login = (port: number, trusted: Ca) =>
          sshLogin(dir, {
            port,
            user: currentUser,
            identityFile: client.privatePath,
            certificateFile: certificateFile_,
            knownHosts: `@cert-authority [127.0.0.1]:${port} ${trusted.public_key}\n`,
            command: 'whoami',
          });
        const [ok, otherCa, wrongName] = await Promise.all([
          login(sshd.port, ca),
          login(sshd.port, foreignCa),
          login(wrongNameSshd.port, ca),
        ]);
        expect(ok, `${ok.stderr}\n${sshd.log()}`).toMatchObject({
          code: 0,
          stdout: `${currentUser}\n`,
        });
        for (const refused of [otherCa, wrongName]) {
          expect(refused.code).toBe(255);
          expect(refused.stderr).toContain('Host key verification failed');
          expect(refused.stdout).toBe('');
        }
      } finally {
        await Promise.all([sshd.close(), wrongNameSshd.close()]);
      }
    },
  );
});

describe('what OpenSSH could not use is refused', () => {
  const sign = (body: Record<string, unknown>, path = '/ssh_user_certificates') =>
    api('POST', path, {
      ssh_certificate_authority_id: (cas[0] as Ca).id,
      public_key: subjectFor(0).publicKey,
      ...body,
    });

  it('public keys that are not one OpenSSH public key (317)', async () => {
    const good = subjectFor(0).publicKey;
    const [algorithm = '', base64 = ''] = good.split(' ');
    const privateKey = await readFile(subjectFor(0).privatePath, 'utf8');
    const someCert = await userCertificate(cas[0] as Ca, subjectFor(0));
    const weakRsa = generateKeyPairSync('rsa', { modulusLength: 768 }).publicKey;
    const offCurve = Buffer.from(subjectFor(1).publicKey.split(' ')[1] ?? '', 'base64');
    offCurve[offCurve.length - 1] = (offCurve.at(-1) ?? 0) ^ 1;
    const bad = {
      garbage: 'not a key at all',
      empty: '',
      'truncated base64': `${algorithm} ${base64.slice(0, base64.length - 12)}`,
      'another algorithm named': `ssh-rsa ${base64}`,
      'a private key': privateKey,
      'a certificate line': someCert.certificate,
      'two keys': `${good}\n${good}`,
      'an RSA key under 1024 bits': `ssh-rsa ${sshPublicBlob(weakRsa).toString('base64')}`,
      'an ECDSA point off its curve': `ecdsa-sha2-nistp256 ${offCurve.toString('base64')}`,
    };
    for (const [what, public_key] of Object.entries(bad)) {
      for (const path of ['/ssh_user_certificates', '/ssh_host_certificates']) {
        const reply = await sign({ public_key }, path);
        expect(reply.body?.error_code, `${what} at ${path}`).toBe('ERR_SERVICE_317');
        expectError(reply, 'invalidPublicKey');
        expect(reply.body.details.field).toBe('public_key');
      }
      // An SSH credential's key is held to the same rules: the gateway must be able to use it.
      const credential = await api('POST', '/ssh_credentials', { public_key });
      expect(credential.body?.error_code, `${what} as an SSH credential`).toBe('ERR_SERVICE_317');
    }
    // The same RSA key at a size OpenSSH takes is fine: the check is the size, not the encoding.
    const rsa2048 = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(
      (
        await sign({
          public_key: `ssh-rsa ${sshPublicBlob(rsa2048).toString('base64')}`,
        })
      ).status,
    ).toBe(201);
  });

  it('an unknown CA, or an id of another kind (223)', async () => {
    const policy = await created(api('POST', '/ip_policies', {}));
    const user = await userCertificate(cas[0] as Ca, subjectFor(0));
    for (const id of ['sshca_Unknown1', policy.id, user.id]) {
      const reply = await sign({ ssh_certificate_authority_id: id });
      expectError(reply, 'invalidReference');
      expect(reply.body.details.field).toBe('ssh_certificate_authority_id');
    }
    // A CA of another account is as unknown as one that never existed.
    const other = await startSandbox({ apiKey: 'other', rateLimit: 'off' });
    try {
      const otherCa = await apiCaller(other.url, 'other')(
        'POST',
        '/ssh_certificate_authorities',
        {},
      );
      expectError(
        await sign({ ssh_certificate_authority_id: otherCa.body.id }),
        'invalidReference',
      );
    } finally {
      await other.close();
    }
  });

  it('critical options: unknown names (319), values sshd would reject (215); host certificates take none (214)', async () => {
    for (const name of ['permit-pty', 'verify-required', 'Force-Command']) {
      const reply = await sign({ critical_options: { [name]: '' } });
      expectError(reply, 'unknownCriticalOption');
    }
    for (const [name, value] of [
      ['force-command', ''],
      ['source-address', ''],
      ['source-address', 'localhost'],
      ['source-address', '10.0.0.0/33'],
      ['source-address', '10.0.0.0/8, 192.0.2.1'],
      ['source-address', '2001:db8::/129'],
    ] as const) {
      const reply = await sign({ critical_options: { [name]: value } });
      expectError(reply, 'invalidValue');
      expect(reply.body.details.field).toBe(`critical_options.${name}`);
    }
    expect(
      (await sign({ critical_options: { 'source-address': '10.0.0.0/8,192.0.2.1,2001:db8::/32' } }))
        .status,
    ).toBe(201);
    expectError(await sign({ critical_options: {} }, '/ssh_host_certificates'), 'unknownField');
  });

  it('valid_until not after valid_after is 318, also once rounded to seconds; a window in the past is allowed', async () => {
    const windows: Record<string, unknown>[] = [
      { valid_after: '2030-01-02T00:00:00Z', valid_until: '2030-01-01T00:00:00Z' },
      { valid_after: '2030-01-01T00:00:00Z', valid_until: '2030-01-01T00:00:00Z' },
      { valid_after: '2030-01-01T00:00:00.100Z', valid_until: '2030-01-01T00:00:00.900Z' },
      // Without valid_after it is now.
      { valid_until: '2001-01-01T00:00:00Z' },
    ];
    for (const path of ['/ssh_user_certificates', '/ssh_host_certificates'])
      for (const window of windows) {
        const reply = await sign(window, path);
        expectError(reply, 'invalidValidity');
        expect(reply.body.details.field).toBe('valid_until');
      }
    const past = await sign({
      valid_after: '2001-01-01T00:00:00Z',
      valid_until: '2001-01-02T00:00:00+02:00',
    });
    expect(past.status).toBe(201);
    expect(past.body).toMatchObject({
      valid_after: '2001-01-01T00:00:00.000Z',
      valid_until: '2001-01-01T22:00:00.000Z',
    });
  });
});
