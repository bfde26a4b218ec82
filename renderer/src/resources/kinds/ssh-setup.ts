import { sshPublicKeyType } from '../../../../shared/api/values/ssh-keys.ts';
import type { SetupLine } from './kind-shape.ts';

/**
 * What a server's sshd_config needs for a host certificate: `HostCertificate` naming the
 * certificate beside its host key (by the key's type, as OpenSSH names host keys), and, to accept
 * the user certificates of the same CA, `TrustedUserCAKeys` (the file the CA's screen fills).
 */
export function hostCertificateSetup(certificate: Readonly<Record<string, unknown>>): SetupLine[] {
  const type = sshPublicKeyType(String(certificate['public_key'] ?? '')) ?? 'ed25519';
  return [
    {
      label: 'Present this certificate (the certificate saved beside the host key)',
      line: `HostCertificate /etc/ssh/ssh_host_${type}_key-cert.pub`,
    },
    {
      label: 'Accept user certificates of its CA (its key line in that file)',
      line: 'TrustedUserCAKeys /etc/ssh/trusted_user_ca_keys',
    },
  ];
}
