import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sshPublicKeyType } from '../../../shared/api/index.ts';
import { generateSshKey, parseSshPublicKey, sshPublicBlob } from '../../../sandbox/ssh/keys.ts';
import { PUBLIC_KEYS } from '../shared/api/fixtures.ts';

describe('SSH keys', () => {
  it('round-trips every fixture key through KeyObject and back to the same blob', () => {
    for (const line of Object.values(PUBLIC_KEYS)) {
      const blob = sshPublicBlob(parseSshPublicKey(line)).toString('base64');
      expect(line.split(' ')[1]).toBe(blob);
    }
  });

  it('generates keys whose public half is a valid authorized_keys line', async () => {
    for (const spec of [{ type: 'ed25519' }, { type: 'ecdsa', curve: 'p521' }] as const) {
      const key = await generateSshKey(spec, 'comment');
      expect(sshPublicKeyType(key.publicKey)).toBe(spec.type);
      expect(key.publicKey.endsWith(' comment')).toBe(true);
      expect(sshPublicBlob(createPublicKey(key.privateKeyPem)).toString('base64')).toBe(
        key.publicKey.split(' ')[1],
      );
    }
  });
});
