/** One key generation: what the worker is asked, what it answers, and the work itself. */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { CURVES, authorizedKeyLineOfJwk } from '../../../shared/api/openssh/key-blob.ts';
import type { NewKeySpec } from '../../../shared/app/ssh/requests.ts';
import { encodeOpenSshPrivateKey, type PrivateJwk } from './private-key-format.ts';

export type KeyPairRequest = {
  readonly spec: NewKeySpec;
  readonly comment: string;
  readonly passphrase: string;
};

export type GeneratedKeyPair = {
  /** The private key file's text (openssh-key-v1, encrypted when a passphrase was given). */
  readonly privateKey: string;
  /** The authorized_keys line, with the comment. */
  readonly publicKey: string;
};

export type GeneratorReply =
  | { readonly id: number; readonly ok: true; readonly key: GeneratedKeyPair }
  | { readonly id: number; readonly ok: false; readonly message: string };

function newPrivateKey(spec: NewKeySpec): KeyObject {
  if (spec.type === 'rsa')
    return generateKeyPairSync('rsa', { modulusLength: spec.bits, publicExponent: 0x10001 })
      .privateKey;
  if (spec.type === 'ecdsa')
    return generateKeyPairSync('ec', { namedCurve: CURVES[spec.curve].jwkCurve }).privateKey;
  return generateKeyPairSync('ed25519').privateKey;
}

/** Blocks for as long as the key takes (seconds for RSA-4096): only the worker calls it. */
export function makeKeyPair(job: KeyPairRequest): GeneratedKeyPair {
  const jwk = newPrivateKey(job.spec).export({ format: 'jwk' }) as PrivateJwk;
  return {
    privateKey: encodeOpenSshPrivateKey(jwk, job.comment, job.passphrase),
    publicKey: authorizedKeyLineOfJwk(jwk, job.comment),
  };
}
