import { z } from 'zod';
import { DescribedBody, describedFields, resourceFields, UtcTimestamp } from '../values/common.ts';

// One certificate, armoured; whether the DER inside is a CA certificate is for the server to parse.
const PEM_CERTIFICATE =
  /^\s*-----BEGIN CERTIFICATE-----\r?\n(?:[A-Za-z0-9+/=]+\r?\n)+-----END CERTIFICATE-----\s*$/;

const PemCertificate = z.string().regex(PEM_CERTIFICATE, 'must be one PEM-encoded certificate');

/** A CA that mutual TLS modules trust, with a few fields read out of its certificate. */
export const CertificateAuthority = z.looseObject({
  ...resourceFields('certificateAuthority'),
  ca_pem: z.string(),
  subject_common_name: z.string(),
  not_before: UtcTimestamp,
  not_after: UtcTimestamp,
  key_usages: z.array(z.string()),
  extended_key_usages: z.array(z.string()),
});
export type CertificateAuthority = z.output<typeof CertificateAuthority>;

export const CertificateAuthorityCreate = z.strictObject({
  ...describedFields,
  ca_pem: PemCertificate,
});
export type CertificateAuthorityCreate = z.input<typeof CertificateAuthorityCreate>;

export const CertificateAuthorityUpdate = DescribedBody;
export type CertificateAuthorityUpdate = z.input<typeof CertificateAuthorityUpdate>;
