import { decodeBase64 } from './base64.ts';
import { WireReader, WireWriter } from './wire.ts';

/** How many public-key fields follow the nonce, per certified key algorithm. */
const KEY_FIELDS: Readonly<Record<string, number>> = {
  'ssh-ed25519': 1,
  'ssh-rsa': 2,
  'ecdsa-sha2-nistp256': 2,
  'ecdsa-sha2-nistp384': 2,
  'ecdsa-sha2-nistp521': 2,
};
const CERT_SUFFIX = '-cert-v01@openssh.com';

/** The fields of an OpenSSH certificate (PROTOCOL.certkeys), as its blob holds them. */
export type CertificateFields = {
  /** `ssh-ed25519-cert-v01@openssh.com`, … */
  readonly certType: string;
  readonly kind: 'user' | 'host';
  /** The certified key: its algorithm and its public key blob. */
  readonly keyAlgorithm: string;
  readonly keyBlob: Uint8Array;
  readonly serial: bigint;
  readonly keyId: string;
  readonly principals: readonly string[];
  /** Seconds since the epoch; 0 is "always", 2^64-1 "forever". */
  readonly validAfter: bigint;
  readonly validBefore: bigint;
  readonly criticalOptions: Readonly<Record<string, string>>;
  readonly extensions: Readonly<Record<string, string>>;
  /** The signing CA's public key blob, and the algorithm of its signature. */
  readonly caKeyBlob: Uint8Array;
  readonly signatureAlgorithm: string;
  /** The text after the blob on the line, if any. */
  readonly comment: string;
};

/** A certificate line that is not one; the message says what is wrong with it. */
export class CertificateFormatError extends Error {}

/** Options are name/data pairs; a non-empty data is itself a string holding the value. */
function readOptions(blob: Uint8Array): Record<string, string> {
  const r = new WireReader(blob);
  const out: Record<string, string> = {};
  while (!r.done) {
    const name = r.text();
    const data = r.string();
    out[name] = data.length === 0 ? '' : new WireReader(data).text();
  }
  return out;
}

function readList(blob: Uint8Array): string[] {
  const r = new WireReader(blob);
  const out: string[] = [];
  while (!r.done) out.push(r.text());
  return out;
}

/**
 * The fields of a certificate in authorized_keys form (`<type> <base64> [comment]`), as
 * `ssh-keygen -L` would read them. The signature is not verified: this is for display and for
 * matching a certificate to its key; sshd is the one who checks it.
 */
export function readCertificate(line: string): CertificateFields {
  const [certType = '', encoded = '', ...rest] = line.trim().split(/\s+/);
  if (certType === '') throw new CertificateFormatError('The certificate is empty');
  const keyAlgorithm = certType.endsWith(CERT_SUFFIX) ? certType.slice(0, -CERT_SUFFIX.length) : '';
  const fieldCount = KEY_FIELDS[keyAlgorithm];
  if (fieldCount === undefined)
    throw new CertificateFormatError(
      `"${certType.slice(0, 60)}" is not an OpenSSH certificate type (expected a *${CERT_SUFFIX} line)`,
    );
  const blob = decodeBase64(encoded);
  if (!blob) throw new CertificateFormatError('The certificate is not valid base64');
  try {
    const r = new WireReader(blob);
    if (r.text() !== certType)
      throw new CertificateFormatError('The certificate blob names another type than its line');
    r.string(); // nonce
    const key = new WireWriter().string(keyAlgorithm);
    for (let i = 0; i < fieldCount; i++) key.string(r.string());
    const serial = r.uint64();
    const type = r.uint32();
    if (type !== 1 && type !== 2)
      throw new CertificateFormatError(`Unknown certificate type ${type} (1 is user, 2 is host)`);
    const fields = {
      certType,
      kind: type === 1 ? ('user' as const) : ('host' as const),
      keyAlgorithm,
      keyBlob: key.bytes(),
      serial,
      keyId: r.text(),
      principals: readList(r.string()),
      validAfter: r.uint64(),
      validBefore: r.uint64(),
      criticalOptions: readOptions(r.string()),
      extensions: readOptions(r.string()),
    };
    r.string(); // reserved
    const caKeyBlob = r.string();
    const signatureAlgorithm = new WireReader(r.string()).text();
    if (!r.done) throw new CertificateFormatError('The certificate has bytes after its signature');
    return { ...fields, caKeyBlob, signatureAlgorithm, comment: rest.join(' ') };
  } catch (error) {
    if (error instanceof CertificateFormatError) throw error;
    throw new CertificateFormatError(
      `The certificate is cut short or corrupt (${(error as Error).message})`,
    );
  }
}
