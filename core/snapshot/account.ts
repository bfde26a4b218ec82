import { createHmac } from 'node:crypto';
import type { Profile } from '../../shared/app/ipc/profiles.ts';
import type { ApiClient } from '../api/client.ts';

/** An account snapshots are read from or applied to, as the window and the command name it. */
export type SnapshotAccount = {
  readonly client: ApiClient;
  /** The address documents and journals name (see snapshotAddress). */
  readonly apiUrl: string;
  /** For messages: "Staging", or the address. */
  readonly label: string;
  /** Whose journals and apply lock these are: one account, never shared by two keys. */
  readonly owner: string;
  readonly profileName?: string;
};

/**
 * A profile's account as snapshots and journals name it. The Local sandbox listens on another
 * port each run, so it is named by its profile: an apply stopped on it resumes.
 */
function snapshotAddress(profile: Pick<Profile, 'id' | 'kind' | 'baseUrl'>): string {
  return profile.kind === 'local' ? `burrow-local-sandbox:${profile.id}` : profile.baseUrl;
}

/** A profile's account: the window and `burrow --profile` share its journals. */
export const profileOwner = (profileId: string) => `profile:${profileId}`;

/**
 * A profile as the account the window, drift and `burrow --profile` read and apply to, reached
 * with the profile's client; `label` is how messages name it (the profile's name by default).
 */
export function profileAccount(
  profile: Pick<Profile, 'id' | 'kind' | 'baseUrl' | 'name'>,
  client: ApiClient,
  label: string = profile.name,
): SnapshotAccount {
  return {
    client,
    apiUrl: snapshotAddress(profile),
    label,
    owner: profileOwner(profile.id),
    profileName: profile.name,
  };
}

/**
 * An account reached by address and key (`burrow --api-url`): a keyed hash of both, so that two
 * keys are two owners and the journal, which is on disk, cannot give the key back.
 */
function keyOwner(apiUrl: string, apiKey: string): string {
  const digest = createHmac('sha256', 'burrow apply journal owner')
    .update(`${apiUrl}\n${apiKey}`)
    .digest('hex');
  return `key:${digest.slice(0, 32)}`;
}

/**
 * The profile an account given by address (`burrow --api-url`) is in its command's Burrow: named
 * by the address and key, so that its apply journals and lock are that account's alone.
 */
export function addressProfileId(apiUrl: string, apiKey: string): string {
  return `prf_${keyOwner(apiUrl, apiKey).slice('key:'.length)}`;
}
