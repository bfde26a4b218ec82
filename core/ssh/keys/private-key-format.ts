/**
 * A private key in OpenSSH's own file format (PROTOCOL.key, "openssh-key-v1"), as `ssh-keygen`
 * writes it since 7.8: unencrypted, or encrypted exactly as ssh-keygen does by default
 * (bcrypt_pbkdf with 16 rounds and a 16-byte salt, then aes256-ctr).
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { decodeBase64Url } from '../../../shared/api/openssh/base64.ts';
import {
  CURVE_BY_JWK_NAME,
  sshAlgorithmOfJwk,
  sshPublicBlobOfJwk,
  type PublicJwk,
} from '../../../shared/api/openssh/key-blob.ts';
import { concatBytes, WireWriter } from '../../../shared/api/openssh/wire.ts';

/**
 * OpenBSD's bcrypt_pbkdf from the npm package, which ships no types: required rather than
 * imported so that its shape is written here, once. Fills `key`; returns 0, or -1 on bad input.
 */
const { pbkdf } = createRequire(import.meta.url)('bcrypt-pbkdf') as {
  pbkdf(
    pass: Uint8Array,
    passlen: number,
    salt: Uint8Array,
    saltlen: number,
    key: Uint8Array,
    keylen: number,
    rounds: number,
  ): number;
};

/** A private key as `KeyObject.export({ format: 'jwk' })` gives it. */
export type PrivateJwk = PublicJwk & {
  readonly d?: string;
  readonly p?: string;
  readonly q?: string;
  readonly qi?: string;
};

const MAGIC = new TextEncoder().encode('openssh-key-v1\0');
/** ssh-keygen's defaults (-a 16, SALT_LEN 16). */
const KDF_ROUNDS = 16;
const SALT_BYTES = 16;
const CIPHER = { name: 'aes256-ctr', node: 'aes-256-ctr', keyBytes: 32, ivBytes: 16, block: 16 };
const UNENCRYPTED_BLOCK = 8;

const field = (jwk: PrivateJwk, name: keyof PrivateJwk) => decodeBase64Url(jwk[name]);

/** The algorithm's private fields, in the order sshkey_private_serialize writes them. */
function privateFields(jwk: PrivateJwk): Uint8Array {
  const algorithm = sshAlgorithmOfJwk(jwk);
  const w = new WireWriter().string(algorithm);
  if (algorithm === 'ssh-ed25519') {
    const pub = field(jwk, 'x');
    // OpenSSH keeps the 32-byte seed and the public key together as one 64-byte secret.
    return w
      .string(pub)
      .string(concatBytes([field(jwk, 'd'), pub]))
      .bytes();
  }
  if (algorithm === 'ssh-rsa')
    return w
      .mpint(field(jwk, 'n'))
      .mpint(field(jwk, 'e'))
      .mpint(field(jwk, 'd'))
      .mpint(field(jwk, 'qi'))
      .mpint(field(jwk, 'p'))
      .mpint(field(jwk, 'q'))
      .bytes();
  const curve = CURVE_BY_JWK_NAME.get(jwk.crv ?? '')?.sshCurve ?? '';
  return w
    .string(curve)
    .string(concatBytes([Uint8Array.of(4), field(jwk, 'x'), field(jwk, 'y')]))
    .mpint(field(jwk, 'd'))
    .bytes();
}

/** The check integers, the key and its comment, padded with 1, 2, 3, … to the cipher's block. */
function privateSection(jwk: PrivateJwk, comment: string, block: number): Uint8Array {
  const check = randomBytes(4).readUInt32BE(0);
  const body = new WireWriter()
    .uint32(check)
    .uint32(check)
    .raw(privateFields(jwk))
    .string(comment)
    .bytes();
  const padding = Uint8Array.from(
    { length: (block - (body.length % block)) % block },
    (_, i) => i + 1,
  );
  return concatBytes([body, padding]);
}

function armor(blob: Uint8Array): string {
  const lines =
    Buffer.from(blob)
      .toString('base64')
      .match(/.{1,70}/g) ?? [];
  return [
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    ...lines,
    '-----END OPENSSH PRIVATE KEY-----',
    '',
  ].join('\n');
}

/**
 * The private key file's text. An empty passphrase leaves the key unencrypted, as ssh-keygen
 * does; deriving the key from a passphrase takes a good fraction of a second on purpose, so this
 * runs in the key generation worker.
 */
export function encodeOpenSshPrivateKey(
  jwk: PrivateJwk,
  comment: string,
  passphrase: string,
): string {
  const publicBlob = sshPublicBlobOfJwk(jwk);
  const out = new WireWriter().raw(MAGIC);
  if (passphrase === '') {
    const section = privateSection(jwk, comment, UNENCRYPTED_BLOCK);
    out.string('none').string('none').string('').uint32(1).string(publicBlob).string(section);
    return armor(out.bytes());
  }
  const salt = randomBytes(SALT_BYTES);
  const derived = new Uint8Array(CIPHER.keyBytes + CIPHER.ivBytes);
  const pass = Buffer.from(passphrase, 'utf8');
  if (pbkdf(pass, pass.length, salt, salt.length, derived, derived.length, KDF_ROUNDS) !== 0)
    throw new Error('bcrypt_pbkdf refused its arguments');
  const cipher = createCipheriv(
    CIPHER.node,
    derived.subarray(0, CIPHER.keyBytes),
    derived.subarray(CIPHER.keyBytes),
  );
  const section = privateSection(jwk, comment, CIPHER.block);
  const encrypted = concatBytes([cipher.update(section), cipher.final()]);
  derived.fill(0);
  section.fill(0);
  const kdfOptions = new WireWriter().string(salt).uint32(KDF_ROUNDS).bytes();
  out
    .string(CIPHER.name)
    .string('bcrypt')
    .string(kdfOptions)
    .uint32(1)
    .string(publicBlob)
    .string(encrypted);
  return armor(out.bytes());
}
