import { decodeBase64Url, encodeBase64 } from './base64.ts';
import { concatBytes, WireWriter } from './wire.ts';

/** The NIST curves of SSH keys, by the names each side uses for them. */
export const CURVES = {
  p256: { jwkCurve: 'P-256', sshCurve: 'nistp256', hash: 'sha256' },
  p384: { jwkCurve: 'P-384', sshCurve: 'nistp384', hash: 'sha384' },
  p521: { jwkCurve: 'P-521', sshCurve: 'nistp521', hash: 'sha512' },
} as const;
type Curve = (typeof CURVES)[keyof typeof CURVES];
export const CURVE_BY_SSH_NAME: ReadonlyMap<string, Curve> = new Map(
  Object.values(CURVES).map((c) => [c.sshCurve, c]),
);
export const CURVE_BY_JWK_NAME: ReadonlyMap<string, Curve> = new Map(
  Object.values(CURVES).map((c) => [c.jwkCurve, c]),
);

/** The public members of a key as `KeyObject.export({ format: 'jwk' })` gives them. */
export type PublicJwk = {
  readonly kty?: string;
  readonly crv?: string;
  readonly x?: string;
  readonly y?: string;
  readonly n?: string;
  readonly e?: string;
};

/** The SSH algorithm name of a key: `ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`. */
export function sshAlgorithmOfJwk(jwk: PublicJwk): string {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'ssh-ed25519';
  if (jwk.kty === 'RSA') return 'ssh-rsa';
  const curve = jwk.kty === 'EC' ? CURVE_BY_JWK_NAME.get(jwk.crv ?? '') : undefined;
  if (!curve) throw new Error(`unsupported key: ${jwk.kty} ${jwk.crv ?? ''}`.trim());
  return `ecdsa-sha2-${curve.sshCurve}`;
}

/** The key's public fields in wire form, without the algorithm name (as certificates embed them). */
export function sshPublicFieldsOfJwk(jwk: PublicJwk): Uint8Array {
  const algorithm = sshAlgorithmOfJwk(jwk);
  const w = new WireWriter();
  if (algorithm === 'ssh-ed25519') w.string(decodeBase64Url(jwk.x));
  else if (algorithm === 'ssh-rsa') w.mpint(decodeBase64Url(jwk.e)).mpint(decodeBase64Url(jwk.n));
  else
    w.string(CURVE_BY_JWK_NAME.get(jwk.crv ?? '')?.sshCurve ?? '').string(
      concatBytes([Uint8Array.of(4), decodeBase64Url(jwk.x), decodeBase64Url(jwk.y)]),
    );
  return w.bytes();
}

/** The public key blob: the algorithm name, then the public fields. */
export function sshPublicBlobOfJwk(jwk: PublicJwk): Uint8Array {
  return concatBytes([
    new WireWriter().string(sshAlgorithmOfJwk(jwk)).bytes(),
    sshPublicFieldsOfJwk(jwk),
  ]);
}

/** The key as an authorized_keys line: `<algorithm> <base64 blob> <comment>`. */
export function authorizedKeyLineOfJwk(jwk: PublicJwk, comment: string): string {
  const line = `${sshAlgorithmOfJwk(jwk)} ${encodeBase64(sshPublicBlobOfJwk(jwk))}`;
  return comment === '' ? line : `${line} ${comment}`;
}
