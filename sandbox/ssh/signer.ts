import type { SshKeySpec } from '../../shared/api/kinds/ssh-certificate-authorities.ts';
import { signCertificate, type CertificateRequest } from './certificate.ts';
import { generateSshKey, type GeneratedKey } from './keys.ts';

/**
 * What SSH certificate authorities need: a key pair, and certificates signed with it. The
 * sandbox's own implementation is real OpenSSH; the seam lets a caller substitute another.
 */
export interface SshSigner {
  generate(spec: SshKeySpec, comment: string): Promise<GeneratedKey>;
  sign(caPrivateKeyPem: string, request: CertificateRequest): string;
}

export const opensshSigner: SshSigner = { generate: generateSshKey, sign: signCertificate };
