/**
 * Keys from core/ssh's worker, saved as the service saves them and read back by OpenSSH's own
 * ssh-keygen: every key type, with and without a passphrase, gives back its public key, and a
 * wrong passphrase is refused.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFilesAtomically } from '../../../../core/ssh/files/atomic-write.ts';
import { createKeyGenerator, type KeyGenerator } from '../../../../core/ssh/keys/generator.ts';
import { sshPublicKeyType } from '../../../../shared/api/values/ssh-keys.ts';
import type { NewKeySpec } from '../../../../shared/app/ssh/requests.ts';
import { removeDir, sshKeygen, tempDir } from '../../../support/openssh.ts';

const SPECS: readonly { spec: NewKeySpec; algorithm: string; bits: string }[] = [
  { spec: { type: 'ed25519' }, algorithm: 'ssh-ed25519', bits: '256' },
  { spec: { type: 'ecdsa', curve: 'p256' }, algorithm: 'ecdsa-sha2-nistp256', bits: '256' },
  { spec: { type: 'ecdsa', curve: 'p384' }, algorithm: 'ecdsa-sha2-nistp384', bits: '384' },
  { spec: { type: 'ecdsa', curve: 'p521' }, algorithm: 'ecdsa-sha2-nistp521', bits: '521' },
  { spec: { type: 'rsa', bits: 3072 }, algorithm: 'ssh-rsa', bits: '3072' },
  { spec: { type: 'rsa', bits: 4096 }, algorithm: 'ssh-rsa', bits: '4096' },
];

let dir: string;
let keygen: KeyGenerator;

beforeAll(async () => {
  dir = await tempDir('burrow-keys-');
  keygen = createKeyGenerator();
});

afterAll(async () => {
  await keygen.close();
  await removeDir(dir);
});

/** Saved the way the service saves a private key. */
async function saved(name: string, text: string): Promise<string> {
  const [file] = await writeFilesAtomically(
    [{ path: path.join(dir, name), role: 'private-key', content: text }],
    { overwrite: false },
  );
  return file?.path ?? '';
}

/**
 * An RSA-4096 key takes seconds of one core's time, and the passphrase's bcrypt about one; on two
 * cores shared with a loaded machine each takes several times that.
 */
const timeoutOf = (spec: NewKeySpec) => ({ timeout: spec.type === 'rsa' ? 120_000 : 60_000 });

describe.each(SPECS)('$spec.type $bits', ({ spec, algorithm, bits }) => {
  it.each(['', 'correct horse battery staple'])(
    'ssh-keygen -y recovers the public key (passphrase "%s")',
    timeoutOf(spec),
    async (passphrase) => {
      const key = await keygen.generate({ spec, comment: 'alice@laptop', passphrase });
      expect(key.privateKey).toMatch(
        /^-----BEGIN OPENSSH PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END OPENSSH PRIVATE KEY-----\n$/,
      );
      expect(key.publicKey).toMatch(new RegExp(`^${algorithm} [A-Za-z0-9+/=]+ alice@laptop$`));
      expect(sshPublicKeyType(key.publicKey)).toBe(spec.type);
      const file = await saved(
        `${spec.type}-${bits}-${passphrase ? 'enc' : 'plain'}`,
        key.privateKey,
      );

      const recovered = await sshKeygen('-y', '-P', passphrase, '-f', file);
      expect(recovered.trim().split(' ').slice(0, 2)).toEqual(key.publicKey.split(' ').slice(0, 2));
      // -l reads the size, and the comment, which an encrypted key keeps in its encrypted part.
      const listed = await sshKeygen('-l', '-f', file);
      const comment = passphrase === '' ? 'alice@laptop' : 'no comment';
      expect(listed).toMatch(new RegExp(`^${bits} SHA256:\\S+ \\(?${comment}`));
      if (passphrase !== '')
        await expect(sshKeygen('-y', '-P', 'wrong', '-f', file)).rejects.toThrow(
          /incorrect passphrase/,
        );
    },
  );
});

it(
  'encrypts exactly as ssh-keygen does: aes256-ctr with bcrypt, 16 rounds',
  timeoutOf({ type: 'ed25519' }),
  async () => {
    const key = await keygen.generate({
      spec: { type: 'ed25519' },
      comment: 'c',
      passphrase: 'pw',
    });
    const blob = Buffer.from(key.privateKey.split('\n').slice(1, -2).join(''), 'base64');
    const text = blob.toString('latin1');
    expect(text.startsWith('openssh-key-v1\0')).toBe(true);
    expect(text).toContain('\0\0\0\naes256-ctr\0\0\0\x06bcrypt\0\0\0\x18\0\0\0\x10');
    // The kdf options: a 16-byte salt, then the rounds.
    const rounds = blob.readUInt32BE(text.indexOf('bcrypt') + 6 + 4 + 4 + 16);
    expect(rounds).toBe(16);
  },
);
