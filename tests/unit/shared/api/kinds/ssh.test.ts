import { describe, expect, it } from 'vitest';
import {
  SSHCertificateAuthority,
  SSHCertificateAuthorityCreate,
  SSHCertificateAuthorityUpdate,
  sshKeySpec,
} from '../../../../../shared/api/kinds/ssh-certificate-authorities.ts';
import {
  SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS,
  SSHHostCertificate,
  SSHHostCertificateCreate,
  SSHUserCertificate,
  SSHUserCertificateCreate,
  SSHUserCertificateUpdate,
} from '../../../../../shared/api/kinds/ssh-certificates.ts';
import { SshKeyType, sshPublicKeyType } from '../../../../../shared/api/values/ssh-keys.ts';
import { expectAccepted, expectRejected } from '../expect-validation.ts';
import { PUBLIC_KEYS, resource } from '../fixtures.ts';

/** An authorized_keys line whose blob holds `fields` in SSH wire format. */
function keyLine(algorithm: string, fields: (string | Uint8Array)[]): string {
  const blob = Buffer.concat(
    fields
      .map((f) => Buffer.from(f))
      .flatMap((p) => [Buffer.from([0, 0, p.length >> 8, p.length & 255]), p]),
  );
  return `${algorithm} ${blob.toString('base64')}`;
}

describe('sshPublicKeyType', () => {
  it.each([
    [PUBLIC_KEYS.ed25519, 'ed25519'],
    [PUBLIC_KEYS.rsa, 'rsa'],
    [PUBLIC_KEYS.ecdsa256, 'ecdsa'],
    [PUBLIC_KEYS.ecdsa384, 'ecdsa'],
    [PUBLIC_KEYS.ecdsa521, 'ecdsa'],
    [`  ${PUBLIC_KEYS.ed25519}\n`, 'ed25519'],
    [`${PUBLIC_KEYS.ed25519} with a comment of several words`, 'ed25519'],
  ])('reads the type of %s', (line, type) => {
    expect(sshPublicKeyType(line)).toBe(type);
  });

  const [, ed25519Blob = ''] = PUBLIC_KEYS.ed25519.split(' ');
  it.each([
    ['empty', ''],
    ['algorithm only', 'ssh-ed25519'],
    ['not base64', 'ssh-ed25519 !!!!'],
    ['truncated blob', `ssh-ed25519 ${ed25519Blob.slice(0, 40)}`],
    ['algorithm differing from the blob', `ssh-rsa ${ed25519Blob}`],
    ['unknown algorithm', keyLine('ssh-dss', ['ssh-dss', 'p', 'q', 'g', 'y'])],
    ['ed25519 key of 31 bytes', keyLine('ssh-ed25519', ['ssh-ed25519', new Uint8Array(31)])],
    [
      'ed25519 with a trailing field',
      keyLine('ssh-ed25519', ['ssh-ed25519', new Uint8Array(32), 'x']),
    ],
    ['rsa without a modulus', keyLine('ssh-rsa', ['ssh-rsa', '\x01\x00\x01'])],
    [
      'ecdsa with the wrong curve name',
      keyLine('ecdsa-sha2-nistp256', ['ecdsa-sha2-nistp256', 'nistp384', new Uint8Array(65)]),
    ],
    [
      'ecdsa with a short point',
      keyLine('ecdsa-sha2-nistp256', ['ecdsa-sha2-nistp256', 'nistp256', new Uint8Array(64)]),
    ],
    ['two keys on two lines', `${PUBLIC_KEYS.ed25519}\n${PUBLIC_KEYS.rsa}`],
    [
      'a PEM public key',
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----',
    ],
  ])('refuses %s', (_, line) => {
    expect(sshPublicKeyType(line)).toBeUndefined();
  });

  it('refuses, without throwing, a blob whose first field is huge', () => {
    const size = 500_000;
    const blob = Buffer.alloc(4 + size, 'a');
    blob.writeUInt32BE(size, 0);
    expect(sshPublicKeyType(`ssh-ed25519 ${blob.toString('base64')}`)).toBeUndefined();
  });

  it('knows the three key types', () => {
    expect(SshKeyType.options).toEqual(['rsa', 'ecdsa', 'ed25519']);
    expect(SshKeyType.safeParse('dsa').success).toBe(false);
  });
});

describe('SSH certificate authority create', () => {
  it('defaults to ed25519', () => {
    expect(sshKeySpec(expectAccepted(SSHCertificateAuthorityCreate, {}))).toEqual({
      type: 'ed25519',
    });
  });

  it.each([
    [{ private_key_type: 'rsa' }, { type: 'rsa', bits: 4096 }],
    [
      { private_key_type: 'rsa', key_size: 2048 },
      { type: 'rsa', bits: 2048 },
    ],
    [
      { private_key_type: 'rsa', key_size: 4096 },
      { type: 'rsa', bits: 4096 },
    ],
    [{ private_key_type: 'ecdsa' }, { type: 'ecdsa', curve: 'p384' }],
    [
      { private_key_type: 'ecdsa', elliptic_curve: 'p256' },
      { type: 'ecdsa', curve: 'p256' },
    ],
    [
      { private_key_type: 'ecdsa', elliptic_curve: 'p521' },
      { type: 'ecdsa', curve: 'p521' },
    ],
    [{ private_key_type: 'ed25519', description: 'ops' }, { type: 'ed25519' }],
  ])('%j generates %j', (body, spec) => {
    expect(sshKeySpec(expectAccepted(SSHCertificateAuthorityCreate, body))).toEqual(spec);
  });

  it('refuses values outside the enums', () => {
    expect(
      expectRejected(
        SSHCertificateAuthorityCreate,
        { private_key_type: 'dsa' },
        'invalidValue',
        'private_key_type',
      ),
    ).toBe('"private_key_type" must be one of "rsa", "ecdsa", "ed25519"');
    expectRejected(
      SSHCertificateAuthorityCreate,
      { private_key_type: 'RSA' },
      'invalidValue',
      'private_key_type',
    );
    for (const curve of ['p224', 'P256', 'secp256k1'])
      expectRejected(
        SSHCertificateAuthorityCreate,
        { private_key_type: 'ecdsa', elliptic_curve: curve },
        'invalidValue',
        'elliptic_curve',
      );
    for (const size of [1024, 3072, 8192, '4096'])
      expect(
        expectRejected(
          SSHCertificateAuthorityCreate,
          { private_key_type: 'rsa', key_size: size },
          'invalidValue',
          'key_size',
        ),
      ).toBe('"key_size" must be one of 2048, 4096');
  });

  it('refuses a curve without ecdsa and a key size without rsa', () => {
    expectRejected(
      SSHCertificateAuthorityCreate,
      { private_key_type: 'rsa', elliptic_curve: 'p256' },
      'invalidValue',
      'elliptic_curve',
    );
    expectRejected(
      SSHCertificateAuthorityCreate,
      { elliptic_curve: 'p256' },
      'invalidValue',
      'elliptic_curve',
    );
    expectRejected(
      SSHCertificateAuthorityCreate,
      { private_key_type: 'ed25519', key_size: 4096 },
      'invalidValue',
      'key_size',
    );
    expectRejected(
      SSHCertificateAuthorityCreate,
      { private_key_type: 'ecdsa', key_size: 2048 },
      'invalidValue',
      'key_size',
    );
  });

  it('refuses the create-only fields on update', () => {
    expectRejected(
      SSHCertificateAuthorityUpdate,
      { private_key_type: 'rsa' },
      'unknownField',
      'private_key_type',
    );
    expectAccepted(SSHCertificateAuthorityUpdate, { description: 'renamed' });
  });

  it('reads an authority, keeping unknown fields', () => {
    const ca = {
      ...resource('/ssh_certificate_authorities', 'sshca_1'),
      public_key: PUBLIC_KEYS.ed25519,
      key_type: 'ed25519',
      future: 1,
    };
    expect(SSHCertificateAuthority.parse(ca)).toEqual(ca);
    expect(SSHCertificateAuthority.safeParse({ ...ca, key_type: 'dsa' }).success).toBe(false);
    expect(SSHCertificateAuthority.safeParse({ ...ca, id: 'sshcr_1' }).success).toBe(false);
  });
});

describe('SSH certificates', () => {
  const base = { ssh_certificate_authority_id: 'sshca_1', public_key: PUBLIC_KEYS.ed25519 };

  it('needs an authority and a public key', () => {
    expectRejected(
      SSHUserCertificateCreate,
      { public_key: PUBLIC_KEYS.rsa },
      'missingField',
      'ssh_certificate_authority_id',
    );
    expectRejected(
      SSHHostCertificateCreate,
      { ssh_certificate_authority_id: 'sshca_1' },
      'missingField',
      'public_key',
    );
    expectRejected(
      SSHUserCertificateCreate,
      { ...base, public_key: 'ssh-ed25519 AAAA' },
      'invalidPublicKey',
      'public_key',
    );
    expectRejected(
      SSHUserCertificateCreate,
      { ...base, ssh_certificate_authority_id: 'ca_1' },
      'invalidReference',
      'ssh_certificate_authority_id',
    );
  });

  it('fills in the documented defaults of a user certificate', () => {
    expect(expectAccepted(SSHUserCertificateCreate, base)).toEqual({
      ...base,
      principals: [],
      critical_options: {},
      extensions: { 'permit-pty': '', 'permit-user-rc': '' },
    });
    expect(SSH_USER_CERTIFICATE_DEFAULT_EXTENSIONS).toEqual({
      'permit-pty': '',
      'permit-user-rc': '',
    });
  });

  it('takes the two critical options and refuses any other with ERR_SERVICE_319', () => {
    expectAccepted(SSHUserCertificateCreate, {
      ...base,
      critical_options: { 'force-command': '/bin/true', 'source-address': '10.0.0.0/8' },
    });
    expectRejected(
      SSHUserCertificateCreate,
      { ...base, critical_options: { 'permit-pty': '' } },
      'unknownCriticalOption',
      'critical_options.permit-pty',
    );
    expectRejected(
      SSHUserCertificateCreate,
      { ...base, critical_options: { 'force-command': 1 } },
      'invalidValue',
      'critical_options.force-command',
    );
  });

  it('has no critical options or extensions on host certificates', () => {
    expectRejected(
      SSHHostCertificateCreate,
      { ...base, critical_options: {} },
      'unknownField',
      'critical_options',
    );
    expectRejected(
      SSHHostCertificateCreate,
      { ...base, extensions: {} },
      'unknownField',
      'extensions',
    );
  });

  it('takes RFC 3339 validity bounds with any offset, until after after', () => {
    for (const schema of [SSHUserCertificateCreate, SSHHostCertificateCreate]) {
      expectAccepted(schema, {
        ...base,
        valid_after: '2025-01-01T00:00:00Z',
        valid_until: '2025-01-01T00:00:01Z',
      });
      expectAccepted(schema, {
        ...base,
        valid_after: '2025-01-01T00:00:00+01:00',
        valid_until: '2025-01-01T00:00:00Z',
      });
      expectAccepted(schema, { ...base, valid_until: '2000-01-01T00:00:00Z' });
      expectRejected(
        schema,
        { ...base, valid_after: '2025-01-01T00:00:00Z', valid_until: '2025-01-01T00:00:00Z' },
        'invalidValidity',
        'valid_until',
      );
      expectRejected(
        schema,
        { ...base, valid_after: '2025-01-01T00:00:00Z', valid_until: '2025-01-01T00:30:00+01:00' },
        'invalidValidity',
        'valid_until',
      );
      expectRejected(schema, { ...base, valid_after: 'tomorrow' }, 'invalidValue', 'valid_after');
    }
  });

  it('refuses empty principals and keeps the update to description and metadata', () => {
    expectRejected(
      SSHUserCertificateCreate,
      { ...base, principals: ['root', ''] },
      'invalidValue',
      'principals[1]',
    );
    expectRejected(SSHUserCertificateUpdate, { principals: [] }, 'unknownField', 'principals');
  });

  it('reads certificates, keeping unknown fields', () => {
    const host = {
      ...resource('/ssh_host_certificates', 'shcrt_1'),
      ...base,
      key_type: 'ed25519',
      principals: ['host.example.com'],
      valid_after: '2025-01-01T00:00:00Z',
      valid_until: '2026-01-01T00:00:00Z',
      certificate: 'ssh-ed25519-cert-v01@openssh.com AAAA',
      serial: '42',
    };
    expect(SSHHostCertificate.parse(host)).toEqual(host);
    const user = { ...host, id: 'sucrt_1', critical_options: {}, extensions: { 'permit-pty': '' } };
    expect(SSHUserCertificate.parse(user)).toEqual(user);
    expect(
      SSHUserCertificate.safeParse({ ...user, valid_until: '2026-01-01T00:00:00+01:00' }).success,
    ).toBe(false);
  });
});
