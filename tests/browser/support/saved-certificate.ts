import type { SavedCertificate } from '../../../shared/app/ssh/results.ts';

/** The folder the scripted bridge's SSH files live in. */
export const SSH_FOLDER = '/home/me/.ssh';

/** A user certificate saved as `name`, `name.pub` and `name-cert.pub` in SSH_FOLDER. */
export function savedCertificate(
  name: string,
  overrides: Partial<SavedCertificate> = {},
): SavedCertificate {
  const at = (file: string) => `${SSH_FOLDER}/${file}`;
  return {
    id: 'saved-1',
    kind: 'user',
    caId: 'sshca_1',
    certificateId: 'sshuc_1',
    publicKey: 'ssh-ed25519 AAAA',
    principals: ['alice'],
    criticalOptions: {},
    extensions: {},
    validAfter: '2026-11-23T10:00:00.000Z',
    validUntil: '2026-11-24T10:00:00.000Z',
    privateKeyPath: at(name),
    publicKeyPath: at(`${name}.pub`),
    certificatePath: at(`${name}-cert.pub`),
    leadTimeSeconds: null,
    savedAt: '2026-11-23T10:00:00.000Z',
    renewedAt: null,
    ...overrides,
  };
}
