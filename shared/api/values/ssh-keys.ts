import { z } from 'zod';
import { decodeBase64 } from '../openssh/base64.ts';
import { WireReader } from '../openssh/wire.ts';
import { rule } from '../errors/rules.ts';

export const SSH_KEY_TYPES = ['rsa', 'ecdsa', 'ed25519'] as const;
export const SshKeyType = z.enum(SSH_KEY_TYPES);
export type SshKeyType = z.output<typeof SshKeyType>;

const ED25519_KEY_BYTES = 32;
const ECDSA_POINT_BYTES: Readonly<Record<string, number>> = {
  nistp256: 65,
  nistp384: 97,
  nistp521: 133,
};

/** The SSH wire format of a key blob: a sequence of strings, each behind a uint32 length. */
function wireStrings(blob: Uint8Array): Uint8Array[] | undefined {
  const reader = new WireReader(blob);
  const fields: Uint8Array[] = [];
  try {
    while (!reader.done) fields.push(reader.string());
  } catch {
    return undefined;
  }
  return fields;
}

// Not String.fromCharCode(...bytes): a blob field can be large enough to overflow the call stack.
const ascii = (bytes: Uint8Array | undefined) =>
  bytes ? Array.from(bytes, (b) => String.fromCharCode(b)).join('') : undefined;

/**
 * The key type of a public key in OpenSSH authorized_keys format (`<algorithm> <base64> [comment]`),
 * or undefined when the line is not one: the blob must decode, name the same algorithm, and hold
 * the fields that algorithm has.
 */
export function sshPublicKeyType(line: string): SshKeyType | undefined {
  const trimmed = line.trim();
  if (trimmed.includes('\n')) return undefined;
  const [algorithm = '', encoded = ''] = trimmed.split(/\s+/);
  const blob = decodeBase64(encoded);
  const fields = blob && wireStrings(blob);
  if (!fields || ascii(fields[0]) !== algorithm) return undefined;
  if (algorithm === 'ssh-ed25519')
    return fields.length === 2 && fields[1]?.length === ED25519_KEY_BYTES ? 'ed25519' : undefined;
  if (algorithm === 'ssh-rsa') return fields.length === 3 ? 'rsa' : undefined;
  const curve = algorithm.replace(/^ecdsa-sha2-/, '');
  const pointBytes = curve !== algorithm ? ECDSA_POINT_BYTES[curve] : undefined;
  const isEcdsa =
    pointBytes !== undefined &&
    fields.length === 3 &&
    ascii(fields[1]) === curve &&
    fields[2]?.length === pointBytes;
  return isEcdsa ? 'ecdsa' : undefined;
}

export const SshPublicKey = z
  .string()
  .refine(
    (s) => sshPublicKeyType(s) !== undefined,
    rule(
      'invalidPublicKey',
      'must be a public key in OpenSSH authorized_keys format, "<algorithm> <base64> [comment]"',
    ),
  );
