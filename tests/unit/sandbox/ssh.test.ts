import { createHash, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sshPublicKeyType } from '../../../shared/api/values/ssh-keys.ts';
import { certificateSerial, certificateTime } from '../../../sandbox/ssh/certificate.ts';
import {
  generateSshKey,
  InvalidSshKey,
  parseSshPublicKey,
  sshPublicBlob,
} from '../../../sandbox/ssh/keys.ts';
import { criticalOptionProblem } from '../../../sandbox/ssh/options.ts';
import { WireWriter } from '../../../shared/api/openssh/wire.ts';
import { PUBLIC_KEYS } from '../shared/api/fixtures.ts';

describe('SSH keys', () => {
  it.each(Object.entries(PUBLIC_KEYS))(
    'round-trips the %s fixture key through KeyObject and back to the same blob',
    (_, line) => {
      const blob = sshPublicBlob(parseSshPublicKey(line)).toString('base64');
      expect(line.split(' ')[1]).toBe(blob);
    },
  );

  it.each([{ type: 'ed25519' }, { type: 'ecdsa', curve: 'p521' }] as const)(
    'generates $type keys whose public half is a valid authorized_keys line',
    async (spec) => {
      const key = await generateSshKey(spec, 'comment');
      expect(sshPublicKeyType(key.publicKey)).toBe(spec.type);
      expect(key.publicKey.endsWith(' comment')).toBe(true);
      expect(sshPublicBlob(createPublicKey(key.privateKeyPem)).toString('base64')).toBe(
        key.publicKey.split(' ')[1],
      );
    },
  );
});

describe('keys OpenSSH would refuse', () => {
  const line = (...fields: (string | Buffer)[]) => {
    const w = new WireWriter();
    for (const f of fields) w.string(f);
    return `${typeof fields[0] === 'string' ? fields[0] : ''} ${Buffer.from(w.bytes()).toString('base64')}`;
  };

  // Moduli written out rather than generated: RSA generation takes seconds on a busy machine,
  // and the parser checks sizes and signs, not primes.
  const e = Buffer.of(1, 0, 1);
  const modulus = (bits: number) => {
    const n = Buffer.alloc(Math.ceil(bits / 8) + 1, 0xff);
    n[0] = 0;
    n[1] = 0xff >> (8 - (bits % 8 || 8));
    return n;
  };

  it('RSA moduli outside 1024–16384 bits, negative or even parameters', () => {
    const n = Buffer.alloc(256, 0xff);
    expect(() => parseSshPublicKey(line('ssh-rsa', e, modulus(1023)))).toThrow(
      /RSA modulus of 1023 bits/,
    );
    const bad = [
      // The top bit set without a zero byte before it: a negative modulus.
      line('ssh-rsa', Buffer.of(1, 0, 1), n),
      line('ssh-rsa', Buffer.of(1, 0, 0), Buffer.concat([Buffer.of(0), n])), // even exponent
      line('ssh-rsa', Buffer.of(1), Buffer.concat([Buffer.of(0), n])), // exponent 1
      line('ssh-rsa', Buffer.alloc(0), Buffer.alloc(0)),
    ];
    for (const key of bad) expect(() => parseSshPublicKey(key), key).toThrow(InvalidSshKey);
    expect(() => parseSshPublicKey(line('ssh-rsa', e, modulus(1024)))).not.toThrow();
  });

  it('ECDSA points off their curve, or of another curve', () => {
    const point = Buffer.alloc(65, 1);
    point[0] = 4;
    expect(() => parseSshPublicKey(line('ecdsa-sha2-nistp256', 'nistp256', point))).toThrow(
      InvalidSshKey,
    );
    expect(() => parseSshPublicKey(line('ecdsa-sha2-nistp256', 'nistp999', point))).toThrow(
      InvalidSshKey,
    );
  });
});

describe('certificate fields', () => {
  it('times are whole seconds, never before the epoch', () => {
    expect(certificateTime(new Date('2030-01-01T00:00:00.999Z')).toISOString()).toBe(
      '2030-01-01T00:00:00.000Z',
    );
    expect(certificateTime(new Date('1969-12-31T23:59:59Z')).getTime()).toBe(0);
  });

  it('the serial is the first 8 bytes of SHA-256 of the id', () => {
    const id = 'sucrt_abc';
    expect(certificateSerial(id)).toBe(createHash('sha256').update(id).digest().readBigUInt64BE(0));
  });

  it.each([
    ['force-command', 'uptime', undefined],
    ['force-command', '', 'empty'],
    ['source-address', '192.0.2.0/24,2001:db8::/32,198.51.100.7', undefined],
    ['source-address', '::1/128', undefined],
    ['source-address', '', 'list'],
    ['source-address', 'example.com', 'list'],
    ['source-address', '192.0.2.0/33', 'list'],
    ['source-address', '192.0.2.0/08', 'list'],
    ['source-address', '192.0.2.0/24/1', 'list'],
    ['source-address', '192.0.2.0/24 ,::1', 'list'],
  ] as const)('%s %j', (name, value, problem) => {
    const found = criticalOptionProblem(name, value);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});
