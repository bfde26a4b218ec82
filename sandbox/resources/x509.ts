import { X509Certificate } from 'node:crypto';

const KEY_USAGE_BITS = [
  'digital_signature',
  'content_commitment',
  'key_encipherment',
  'data_encipherment',
  'key_agreement',
  'cert_sign',
  'crl_sign',
  'encipher_only',
  'decipher_only',
] as const;

const EXTENDED_KEY_USAGES: Readonly<Record<string, string>> = {
  '1.3.6.1.5.5.7.3.1': 'server_auth',
  '1.3.6.1.5.5.7.3.2': 'client_auth',
  '1.3.6.1.5.5.7.3.3': 'code_signing',
  '1.3.6.1.5.5.7.3.4': 'email_protection',
  '1.3.6.1.5.5.7.3.8': 'time_stamping',
  '1.3.6.1.5.5.7.3.9': 'ocsp_signing',
  '2.5.29.37.0': 'any',
};

type Tlv = { readonly tag: number; readonly content: Buffer; readonly end: number };

/** One DER element at `at`: tag, content and where the next element starts. */
function tlv(der: Buffer, at: number): Tlv {
  const tag = der[at] ?? 0;
  let length = der[at + 1] ?? 0;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + (der[start + i] ?? 0);
    start += bytes;
  }
  if (start + length > der.length) throw new RangeError('truncated DER');
  return { tag, content: der.subarray(start, start + length), end: start + length };
}

function children(content: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < content.length;) {
    const element = tlv(content, at);
    out.push(element);
    at = element.end;
  }
  return out;
}

// 2.5.29.15, DER-encoded.
const KEY_USAGE_OID = Buffer.from([0x55, 0x1d, 0x0f]);

/**
 * The key usage extension's names. node:crypto exposes only the extended key usages, so the
 * extension is read from the DER: tbsCertificate → [3] extensions → keyUsage BIT STRING.
 */
function keyUsages(der: Buffer): string[] {
  const [tbs] = children(tlv(der, 0).content);
  const extensions = tbs && children(tbs.content).find((e) => e.tag === 0xa3);
  if (!extensions) return [];
  for (const extension of children(tlv(extensions.content, 0).content)) {
    const [oid, ...rest] = children(extension.content);
    if (!oid?.content.equals(KEY_USAGE_OID)) continue;
    const value = rest.find((e) => e.tag === 0x04);
    if (!value) return [];
    const bits = tlv(value.content, 0).content.subarray(1);
    return KEY_USAGE_BITS.filter((_, i) => ((bits[i >> 3] ?? 0) >> (7 - (i & 7))) & 1);
  }
  return [];
}

export type CaFields = {
  readonly subject_common_name: string;
  readonly not_before: string;
  readonly not_after: string;
  readonly key_usages: string[];
  readonly extended_key_usages: string[];
};

/** The fields of a CA certificate, or why it is not one. */
export function readCaCertificate(pem: string): CaFields | { readonly problem: string } {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    return { problem: 'is not a parsable X.509 certificate' };
  }
  if (!cert.ca) return { problem: 'is not a CA certificate (basicConstraints CA is not set)' };
  let usages: string[];
  try {
    usages = keyUsages(cert.raw);
  } catch {
    return { problem: 'has a malformed extension' };
  }
  const cn = cert.subject.split('\n').find((line) => line.startsWith('CN='));
  return {
    subject_common_name: cn?.slice(3) ?? '',
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
    key_usages: usages,
    extended_key_usages: (cert.keyUsage ?? []).map((oid) => EXTENDED_KEY_USAGES[oid] ?? oid),
  };
}
