import { createHash } from 'node:crypto';
import type { SshKeyType } from '../../../shared/api/values/ssh-keys.ts';
import { encodeBase64 } from '../../../shared/api/openssh/base64.ts';
import {
  CertificateFormatError,
  readCertificate,
} from '../../../shared/api/openssh/certificate-format.ts';
import type { CertificateInfo } from '../../../shared/app/ssh/results.ts';
import { SshError } from '../errors.ts';

/** `SHA256:<base64 without padding>`, as ssh-keygen -l prints a key's fingerprint. */
function fingerprintOf(blob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

const keyTypeOf = (algorithm: string): SshKeyType =>
  algorithm === 'ssh-ed25519' ? 'ed25519' : algorithm === 'ssh-rsa' ? 'rsa' : 'ecdsa';

/** The last second a Date can show; later times (2^64-1 above all) read as "forever". */
const LAST_SECOND = 253402300799n; // 9999-12-31T23:59:59Z

function timeOf(seconds: bigint, open: bigint): string | null {
  if (seconds === open || seconds > LAST_SECOND) return null;
  return new Date(Number(seconds) * 1000).toISOString();
}

/** Everything `ssh-keygen -L` shows of a certificate (the first line of `text`), as plain data. */
export function describeCertificate(text: string): CertificateInfo {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (line === undefined)
    throw new SshError('invalid-certificate', 'There is no certificate in the text');
  let fields;
  try {
    fields = readCertificate(line);
  } catch (error) {
    if (error instanceof CertificateFormatError)
      throw new SshError('invalid-certificate', error.message, { cause: error });
    throw error;
  }
  return {
    certType: fields.certType,
    kind: fields.kind,
    keyType: keyTypeOf(fields.keyAlgorithm),
    publicKey: `${fields.keyAlgorithm} ${encodeBase64(fields.keyBlob)}`,
    keyFingerprint: fingerprintOf(fields.keyBlob),
    keyId: fields.keyId,
    serial: fields.serial.toString(),
    principals: fields.principals,
    validAfter: timeOf(fields.validAfter, 0n),
    validBefore: timeOf(fields.validBefore, 0xffffffffffffffffn),
    criticalOptions: fields.criticalOptions,
    extensions: fields.extensions,
    caFingerprint: fingerprintOf(fields.caKeyBlob),
    signatureAlgorithm: fields.signatureAlgorithm,
  };
}
