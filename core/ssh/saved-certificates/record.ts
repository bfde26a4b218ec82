/** The record Burrow keeps of each certificate it saved: made, stored, looked up. */
import { randomUUID } from 'node:crypto';
import type { SigningOptions } from '../../../shared/app/ssh/requests.ts';
import type { SavedCertificate } from '../../../shared/app/ssh/results.ts';
import type { SshContext } from '../context.ts';
import { SshError } from '../errors.ts';
import type { KeyValueStore } from '../../store.ts';
import { putSaved, readSaved } from './store.ts';

/** A record without its current certificate: what stays the same across renewals. */
export type RecordBase = Omit<
  SavedCertificate,
  'certificateId' | 'validAfter' | 'validUntil' | 'renewedAt'
>;

export type Issued = {
  readonly id: string;
  readonly valid_after: string;
  readonly valid_until: string;
  readonly profileId?: string | undefined;
};

export function savedById(store: Pick<KeyValueStore, 'get' | 'set'>, id: string): SavedCertificate {
  const saved = readSaved(store).find((s) => s.id === id);
  if (!saved) throw new SshError('unknown-saved', 'Burrow has no saved certificate with this id');
  return saved;
}

/** Stores `base` with the certificate `issued`, in place of any record of the same file. */
export function remember(
  store: Pick<KeyValueStore, 'get' | 'set'>,
  base: RecordBase,
  issued: Issued,
  renewedAt: string | null,
): SavedCertificate {
  const saved = {
    ...base,
    ...(issued.profileId !== undefined && { profileId: issued.profileId }),
    certificateId: issued.id,
    validAfter: issued.valid_after,
    validUntil: issued.valid_until,
    renewedAt,
  };
  // A certificate saved over another one's file replaces it: the old record would renew a
  // key that is no longer there into the new key's certificate file.
  putSaved(store, saved, (other) => other.certificatePath === saved.certificatePath);
  return saved;
}

/** A record of a certificate about to be saved, from the choices it was signed with. */
export function newRecord(
  context: Pick<SshContext, 'now'>,
  signing: SigningOptions,
  publicKey: string,
  paths: { privateKey: string | null; publicKey: string; certificate: string },
): RecordBase {
  return {
    id: randomUUID(),
    kind: signing.kind,
    caId: signing.caId,
    publicKey,
    principals: [...signing.principals],
    criticalOptions: { ...signing.criticalOptions },
    extensions: signing.kind === 'user' ? { ...signing.extensions } : {},
    ...(signing.description !== undefined && { description: signing.description }),
    privateKeyPath: paths.privateKey,
    publicKeyPath: paths.publicKey,
    certificatePath: paths.certificate,
    leadTimeSeconds: null,
    savedAt: new Date(context.now()).toISOString(),
  };
}

/** The choices a saved certificate was signed with, for a window of `seconds`. */
export function signingOf(saved: SavedCertificate, seconds: number): SigningOptions {
  return {
    caId: saved.caId,
    kind: saved.kind,
    principals: saved.principals,
    validity: { seconds },
    criticalOptions: saved.criticalOptions,
    extensions: saved.extensions,
    ...(saved.description !== undefined && { description: saved.description }),
  };
}

/** The private key's path, refused when Burrow does not know it. */
export function privateKeyOf(saved: SavedCertificate): string {
  if (saved.privateKeyPath === null)
    throw new SshError(
      'invalid-input',
      'Burrow does not know where the private key of this certificate is',
    );
  return saved.privateKeyPath;
}
