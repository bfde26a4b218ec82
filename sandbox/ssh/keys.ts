import { createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { SshKeySpec } from '../../shared/api/kinds/ssh-certificate-authorities.ts';
import type { SshKeyType } from '../../shared/api/values/ssh-keys.ts';
import {
  CURVE_BY_JWK_NAME,
  CURVE_BY_SSH_NAME,
  CURVES,
  sshAlgorithmOfJwk,
  sshPublicBlobOfJwk,
  sshPublicFieldsOfJwk,
  type PublicJwk,
} from '../../shared/api/openssh/key-blob.ts';
import { WireReader } from '../../shared/api/openssh/wire.ts';

const generate = promisify(generateKeyPair);

export type GeneratedKey = {
  readonly privateKeyPem: string;
  readonly publicKey: string;
  readonly keyType: SshKeyType;
};

/** A new key pair: the private key as PKCS#8 PEM, the public key as an authorized_keys line. */
export async function generateSshKey(spec: SshKeySpec, comment: string): Promise<GeneratedKey> {
  const pem = { privateKeyEncoding: { type: 'pkcs8', format: 'pem' } } as const;
  const { privateKey } =
    spec.type === 'rsa'
      ? await generate('rsa', {
          modulusLength: spec.bits,
          publicExponent: 0x10001,
          ...pem,
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        })
      : spec.type === 'ecdsa'
        ? await generate('ec', {
            namedCurve: CURVES[spec.curve].jwkCurve,
            ...pem,
            publicKeyEncoding: { type: 'spki', format: 'pem' },
          })
        : await generate('ed25519', { ...pem, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const publicKey = createPublicKey(privateKey);
  return {
    privateKeyPem: privateKey,
    publicKey: `${sshAlgorithm(publicKey)} ${sshPublicBlob(publicKey).toString('base64')} ${comment}`,
    keyType: spec.type,
  };
}

function jwkOf(key: KeyObject): PublicJwk {
  return key.export({ format: 'jwk' }) as PublicJwk;
}

/** The SSH algorithm name of a public key: `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`. */
export function sshAlgorithm(key: KeyObject): string {
  return sshAlgorithmOfJwk(jwkOf(key));
}

/** The key's public fields in wire form, without the algorithm name (as certificates embed them). */
export function sshPublicFields(key: KeyObject): Buffer {
  return Buffer.from(sshPublicFieldsOfJwk(jwkOf(key)));
}

/** The public key blob of an authorized_keys line. */
export function sshPublicBlob(key: KeyObject): Buffer {
  return Buffer.from(sshPublicBlobOfJwk(jwkOf(key)));
}

const unsigned = (b: Buffer) => {
  let start = 0;
  while (start < b.length - 1 && b[start] === 0) start++;
  return b.subarray(start);
};

/** A public key OpenSSH itself would refuse to read; the message says why. */
export class InvalidSshKey extends Error {}

// OpenSSH's own bounds (SSH_RSA_MINIMUM_MODULUS_SIZE, SSHBUF_MAX_BIGNUM): a certificate over a
// key outside them would be refused by every sshd, so it is not signed at all.
const RSA_MIN_BITS = 1024;
const RSA_MAX_BITS = 16384;

function bitLength(magnitude: Buffer): number {
  const top = magnitude[0] ?? 0;
  return top === 0 ? 0 : (magnitude.length - 1) * 8 + (32 - Math.clz32(top));
}

function rsaKey(e: Buffer, n: Buffer): KeyObject {
  const bits = bitLength(n);
  if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS)
    throw new InvalidSshKey(
      `RSA modulus of ${bits} bits; OpenSSH takes ${RSA_MIN_BITS} to ${RSA_MAX_BITS}`,
    );
  if (bitLength(e) < 2 || ((e.at(-1) ?? 0) & 1) === 0)
    throw new InvalidSshKey('RSA public exponent must be odd and greater than 1');
  return createPublicKey({
    key: { kty: 'RSA', e: e.toString('base64url'), n: n.toString('base64url') },
    format: 'jwk',
  });
}

function ecdsaKey(curveName: string, point: Buffer): KeyObject {
  const curve = CURVE_BY_SSH_NAME.get(curveName);
  if (!curve || point[0] !== 4)
    throw new InvalidSshKey('not an uncompressed point of a NIST curve');
  const size = (point.length - 1) / 2;
  try {
    // OpenSSL checks that the point is on the curve, as OpenSSH does.
    return createPublicKey({
      key: {
        kty: 'EC',
        crv: curve.jwkCurve,
        x: point.subarray(1, 1 + size).toString('base64url'),
        y: point.subarray(1 + size).toString('base64url'),
      },
      format: 'jwk',
    });
  } catch {
    throw new InvalidSshKey(`the ECDSA point is not on ${curve.sshCurve}`);
  }
}

/** The algorithm and the key blob (the base64 field decoded, its type included) of an authorized_keys line. */
export function authorizedKeyFields(line: string): { algorithm: string; blob: Buffer } {
  const [algorithm = '', encoded = ''] = line.trim().split(/\s+/);
  return { algorithm, blob: Buffer.from(encoded, 'base64') };
}

/**
 * A KeyObject from an authorized_keys line. The shared schema checked its shape; this checks
 * what only key arithmetic can (RSA sizes, points on their curve) and throws InvalidSshKey.
 */
export function parseSshPublicKey(line: string): KeyObject {
  const { algorithm, blob } = authorizedKeyFields(line);
  try {
    const r = new WireReader(blob);
    if (r.text() !== algorithm) throw new InvalidSshKey('algorithm mismatch');
    if (algorithm === 'ssh-ed25519')
      return createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(r.string()).toString('base64url') },
        format: 'jwk',
      });
    if (algorithm === 'ssh-rsa') {
      const [e, n] = [Buffer.from(r.string()), Buffer.from(r.string())];
      if ((e[0] ?? 0) & 0x80 || (n[0] ?? 0) & 0x80)
        throw new InvalidSshKey('negative RSA parameter');
      return rsaKey(unsigned(e), unsigned(n));
    }
    const curveName = r.text();
    return ecdsaKey(curveName, Buffer.from(r.string()));
  } catch (error) {
    if (error instanceof InvalidSshKey) throw error;
    throw new InvalidSshKey(`unreadable ${algorithm || 'SSH'} key: ${(error as Error).message}`);
  }
}

/** The hash an ECDSA key of this curve signs with in SSH (RFC 5656 §6.2.1). */
export function ecdsaHash(key: KeyObject): string {
  return CURVE_BY_JWK_NAME.get(jwkOf(key).crv ?? '')?.hash ?? 'sha256';
}
