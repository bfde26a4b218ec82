import {
  createHash,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import {
  ecdsaHash,
  parseSshPublicKey,
  sshAlgorithm,
  sshPublicBlob,
  sshPublicFields,
} from './keys.ts';
import type { CertificateFields } from '../../shared/api/openssh/certificate-format.ts';
import { WireWriter } from '../../shared/api/openssh/wire.ts';

/**
 * A certificate to sign: what the CA vouches for, as a certificate read back holds it, but the key
 * as its authorized_keys line and the validity as dates.
 */
export type CertificateRequest = Pick<
  CertificateFields,
  'kind' | 'keyId' | 'serial' | 'principals' | 'criticalOptions' | 'extensions'
> & {
  readonly publicKey: string;
  readonly validAfter: Date;
  readonly validBefore: Date;
};

const CERT_TYPE = { user: 1, host: 2 } as const;

/** Name/data pairs sorted by name, as PROTOCOL.certkeys requires. */
function options(entries: Readonly<Record<string, string>>, wrapEmpty: boolean): Uint8Array {
  const w = new WireWriter();
  for (const name of Object.keys(entries).sort()) {
    const value = entries[name] ?? '';
    w.string(name);
    w.string(
      value === '' && !wrapEmpty ? new Uint8Array() : new WireWriter().string(value).bytes(),
    );
  }
  return w.bytes();
}

function signature(caKey: KeyObject, data: Uint8Array): Uint8Array {
  const algorithm = sshAlgorithm(createPublicKey(caKey));
  if (algorithm === 'ssh-ed25519')
    return new WireWriter()
      .string(algorithm)
      .string(sign(null, data, caKey))
      .bytes();
  if (algorithm === 'ssh-rsa')
    return new WireWriter()
      .string('rsa-sha2-512')
      .string(sign('sha512', data, caKey))
      .bytes();
  const raw = sign(ecdsaHash(caKey), data, { key: caKey, dsaEncoding: 'ieee-p1363' });
  const half = raw.length / 2;
  const rs = new WireWriter().mpint(raw.subarray(0, half)).mpint(raw.subarray(half)).bytes();
  return new WireWriter().string(algorithm).string(rs).bytes();
}

/**
 * A time as a certificate can hold it: whole seconds (the format counts seconds), and not before
 * the epoch (the count is unsigned). The API answers with this time, so that what it says and
 * what `ssh-keygen -L` prints agree.
 */
export function certificateTime(d: Date): Date {
  return new Date(Math.max(0, Math.floor(d.getTime() / 1000) * 1000));
}

const seconds = (d: Date) => BigInt(certificateTime(d).getTime() / 1000);

/**
 * The serial of the certificate with this id: the first 8 bytes of SHA-256(id), big-endian.
 * Ids are random, so serials are as unique as random ones would be, and a serial can be found
 * again from the API's answer (for a KRL, or to check a certificate against its record).
 */
export function certificateSerial(id: string): bigint {
  return createHash('sha256').update(id).digest().readBigUInt64BE(0);
}

/**
 * An OpenSSH certificate (PROTOCOL.certkeys, `*-cert-v01@openssh.com`) of `request.publicKey`,
 * signed by the CA's private key (PKCS#8 PEM), as one authorized_keys-style line.
 */
export function signCertificate(caPrivateKeyPem: string, request: CertificateRequest): string {
  const caKey = createPrivateKey(caPrivateKeyPem);
  const subject = parseSshPublicKey(request.publicKey);
  const certType = `${sshAlgorithm(subject)}-cert-v01@openssh.com`;
  const principals = new WireWriter();
  for (const p of request.principals) principals.string(p);
  const body = new WireWriter()
    .string(certType)
    .string(randomBytes(32))
    .raw(sshPublicFields(subject))
    .uint64(request.serial)
    .uint32(CERT_TYPE[request.kind])
    .string(request.keyId)
    .string(principals.bytes())
    .uint64(seconds(request.validAfter))
    .uint64(seconds(request.validBefore))
    .string(options(request.criticalOptions, true))
    .string(options(request.extensions, false))
    .string('')
    .string(sshPublicBlob(createPublicKey(caKey)))
    .bytes();
  const certificate = Buffer.concat([
    body,
    new WireWriter().string(signature(caKey, body)).bytes(),
  ]);
  return `${certType} ${certificate.toString('base64')} ${request.keyId}`;
}
