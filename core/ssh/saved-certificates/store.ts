/**
 * The certificates Burrow saved, remembered in the app's settings store: paths, ids, the public
 * key and the signing choices (what renewing needs), never a secret.
 */
import { SavedCertificate } from '../../../shared/app/ssh/results.ts';
import type { KeyValueStore } from '../../store.ts';

/** Where the records are, in the settings store: a command on an address keeps them there too. */
export const SAVED_CERTIFICATES_KEY = 'ssh.savedCertificates';

/** Every readable record; one damaged by hand is skipped rather than hiding all the others. */
export function readSaved(store: Pick<KeyValueStore, 'get' | 'set'>): SavedCertificate[] {
  const value = store.get(SAVED_CERTIFICATES_KEY);
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const parsed = SavedCertificate.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Adds `record` in place of the one with its id, and of any other that `replaces` picks. */
export function putSaved(
  store: Pick<KeyValueStore, 'get' | 'set'>,
  record: SavedCertificate,
  replaces: (other: SavedCertificate) => boolean = () => false,
): void {
  const others = readSaved(store).filter((r) => r.id !== record.id && !replaces(r));
  store.set(SAVED_CERTIFICATES_KEY, [...others, record]);
}

export function removeSaved(store: Pick<KeyValueStore, 'get' | 'set'>, id: string): void {
  store.set(
    SAVED_CERTIFICATES_KEY,
    readSaved(store).filter((r) => r.id !== id),
  );
}
