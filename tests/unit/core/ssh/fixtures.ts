import type { SavedCertificate } from '../../../../shared/ssh/results.ts';

export const HOUR = 3_600_000;
export const T0 = Date.parse('2026-11-23T00:00:00Z');

/** A saved user certificate valid for a day from T0, with `over` changed. */
export function savedCertificate(over: Partial<SavedCertificate> = {}): SavedCertificate {
  return {
    id: 'local-1',
    kind: 'user',
    caId: 'sshca_1',
    certificateId: 'sucrt_1',
    publicKey: 'ssh-ed25519 AAAA',
    principals: ['alice'],
    criticalOptions: {},
    extensions: {},
    validAfter: new Date(T0).toISOString(),
    validUntil: new Date(T0 + 24 * HOUR).toISOString(),
    privateKeyPath: '/home/a/.ssh/id',
    publicKeyPath: '/home/a/.ssh/id.pub',
    certificatePath: '/home/a/.ssh/id-cert.pub',
    leadTimeSeconds: null,
    savedAt: new Date(T0).toISOString(),
    renewedAt: null,
    ...over,
  };
}
