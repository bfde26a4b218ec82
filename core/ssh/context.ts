/** What every SSH operation works with: made once by the service, handed to each operation. */
import type { WriteHooks } from './files/atomic-write.ts';
import type { KeyValueStore } from '../store.ts';
import type { SshApi } from './certificates/signature-request.ts';
import type { FileLocks } from './files/locks.ts';

/**
 * Which API signs, resolved on each call: no id means the active profile's, an id the profile
 * that signed a saved certificate (renewing goes back to the same account whatever is active).
 */
export type SshApiSource = (
  profileId?: string,
) => Promise<{ readonly profileId: string; readonly api: SshApi }>;

export type SshContext = {
  readonly store: Pick<KeyValueStore, 'get' | 'set'>;
  /** Wall-clock time in ms since the epoch. */
  readonly now: () => number;
  /** The API to sign with, and the profile it belongs to when the app has profiles. */
  readonly apiOf: (profileId?: string) => Promise<{ profileId?: string; api: SshApi }>;
  readonly writeHooks: WriteHooks | undefined;
  /** Taken around every operation that writes key files. */
  readonly lockFiles: FileLocks;
};
