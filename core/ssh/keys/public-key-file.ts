/** Public key files: the `.pub` a person chose, and the one a certificate is saved beside. */
import path from 'node:path';
import { SshPublicKey } from '../../../shared/api/values/ssh-keys.ts';
import { SshError } from '../errors.ts';
import { MAX_KEY_FILE_BYTES, readSmallFile } from '../files/small-file.ts';

/** `ssh-ed25519 AAAA…` of an authorized_keys line: the key without its comment. */
export const keyOnly = (line: string) => line.trim().split(/\s+/).slice(0, 2).join(' ');

/** Where ssh looks for the key of a public key file, and for its certificate: `id.pub` → `id`, `id-cert.pub`. */
export function siblingsOf(publicKeyPath: string): { privateKey: string; certificate: string } {
  if (!publicKeyPath.endsWith('.pub'))
    throw new SshError(
      'invalid-public-key',
      `${publicKeyPath} is not a .pub file; choose the public key, never the private one`,
    );
  // Of `.pub` alone, the private key would be the folder itself.
  if (path.basename(publicKeyPath) === '.pub')
    throw new SshError(
      'invalid-public-key',
      `${publicKeyPath} has no name before ".pub", so it names no private key; rename it as NAME.pub beside the private key NAME`,
    );
  const privateKey = publicKeyPath.slice(0, -'.pub'.length);
  return { privateKey, certificate: `${privateKey}-cert.pub` };
}

/** The public key line of `publicKeyPath`, refused when the file holds anything else. */
export async function readPublicKeyFile(publicKeyPath: string): Promise<string> {
  const text = await readSmallFile(publicKeyPath, MAX_KEY_FILE_BYTES);
  if (text.includes('PRIVATE KEY-----'))
    throw new SshError(
      'invalid-public-key',
      `${publicKeyPath} holds a private key; choose the public key (.pub) instead`,
    );
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
  if (line.includes('-cert-v01@openssh.com'))
    throw new SshError(
      'invalid-public-key',
      `${publicKeyPath} is a certificate; choose the public key it was made for`,
    );
  if (!SshPublicKey.safeParse(line).success)
    throw new SshError(
      'invalid-public-key',
      `${publicKeyPath} is not an OpenSSH public key ("ssh-ed25519 AAAA… comment")`,
    );
  return line.trim();
}

/**
 * Refuses unless `publicKeyPath` still holds `key`: a certificate goes only beside the key it
 * certifies, whatever replaced the key since it was read (a new key of the same name, ssh-keygen).
 */
export async function checkKeyOnDisk(publicKeyPath: string, key: string): Promise<void> {
  if (keyOnly(await readPublicKeyFile(publicKeyPath)) !== keyOnly(key))
    throw new SshError(
      'key-changed',
      `${publicKeyPath} no longer holds the key this certificate is for; nothing was saved. Sign the key that is there now instead.`,
    );
}
