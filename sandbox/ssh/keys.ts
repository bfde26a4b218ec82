import { createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { SshKeySpec, SshKeyType } from '../../shared/api/index.ts';
import { WireReader, WireWriter } from './wire.ts';

const generate = promisify(generateKeyPair);

const CURVES = {
  p256: { nodeCurve: 'P-256', sshCurve: 'nistp256', hash: 'sha256' },
  p384: { nodeCurve: 'P-384', sshCurve: 'nistp384', hash: 'sha384' },
  p521: { nodeCurve: 'P-521', sshCurve: 'nistp521', hash: 'sha512' },
} as const;
const BY_SSH_CURVE = new Map(Object.values(CURVES).map((c) => [c.sshCurve as string, c]));
const BY_JWK_CURVE = new Map(Object.values(CURVES).map((c) => [c.nodeCurve as string, c]));

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
            namedCurve: CURVES[spec.curve].nodeCurve,
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

type Jwk = { kty?: string; crv?: string; x?: string; y?: string; n?: string; e?: string };

function jwkOf(key: KeyObject): Jwk {
  return key.export({ format: 'jwk' }) as Jwk;
}

const b64url = (s: string | undefined) => Buffer.from(s ?? '', 'base64url');

/** The SSH algorithm name of a public key: `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`. */
export function sshAlgorithm(key: KeyObject): string {
  const jwk = jwkOf(key);
  if (jwk.kty === 'OKP') return 'ssh-ed25519';
  if (jwk.kty === 'RSA') return 'ssh-rsa';
  const curve = BY_JWK_CURVE.get(jwk.crv ?? '');
  if (!curve) throw new Error(`unsupported curve ${jwk.crv}`);
  return `ecdsa-sha2-${curve.sshCurve}`;
}

/** The key's public fields in wire form, without the algorithm name (as certificates embed them). */
export function sshPublicFields(key: KeyObject): Buffer {
  const jwk = jwkOf(key);
  const w = new WireWriter();
  if (jwk.kty === 'OKP') w.string(b64url(jwk.x));
  else if (jwk.kty === 'RSA') w.mpint(b64url(jwk.e)).mpint(b64url(jwk.n));
  else {
    const curve = BY_JWK_CURVE.get(jwk.crv ?? '');
    w.string(curve?.sshCurve ?? '').string(
      Buffer.concat([Buffer.of(4), b64url(jwk.x), b64url(jwk.y)]),
    );
  }
  return w.bytes();
}

/** The public key blob of an authorized_keys line. */
export function sshPublicBlob(key: KeyObject): Buffer {
  return Buffer.concat([new WireWriter().string(sshAlgorithm(key)).bytes(), sshPublicFields(key)]);
}

const unsigned = (b: Buffer) => {
  let start = 0;
  while (start < b.length - 1 && b[start] === 0) start++;
  return b.subarray(start);
};

/** A KeyObject from an authorized_keys line the shared schema accepted. */
export function parseSshPublicKey(line: string): KeyObject {
  const [algorithm = '', encoded = ''] = line.trim().split(/\s+/);
  const r = new WireReader(Buffer.from(encoded, 'base64'));
  if (r.string().toString() !== algorithm) throw new Error('algorithm mismatch');
  if (algorithm === 'ssh-ed25519')
    return createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: r.string().toString('base64url') },
      format: 'jwk',
    });
  if (algorithm === 'ssh-rsa') {
    const e = unsigned(r.string());
    const n = unsigned(r.string());
    return createPublicKey({
      key: { kty: 'RSA', e: e.toString('base64url'), n: n.toString('base64url') },
      format: 'jwk',
    });
  }
  const curve = BY_SSH_CURVE.get(r.string().toString());
  const point = r.string();
  if (!curve || point[0] !== 4) throw new Error('unsupported ECDSA key');
  const size = (point.length - 1) / 2;
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: curve.nodeCurve,
      x: point.subarray(1, 1 + size).toString('base64url'),
      y: point.subarray(1 + size).toString('base64url'),
    },
    format: 'jwk',
  });
}

/** The hash an ECDSA key of this curve signs with in SSH (RFC 5656 §6.2.1). */
export function ecdsaHash(key: KeyObject): string {
  return BY_JWK_CURVE.get(jwkOf(key).crv ?? '')?.hash ?? 'sha256';
}
