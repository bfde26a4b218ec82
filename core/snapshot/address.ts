import type { Profile } from '../../shared/app/ipc/profiles.ts';

/**
 * A profile's account as snapshots and journals name it. The Local sandbox listens on another
 * port each run, so it is named by its profile: an apply stopped on it resumes.
 */
export function snapshotAddress(profile: Pick<Profile, 'id' | 'kind' | 'baseUrl'>): string {
  return profile.kind === 'local' ? `burrow-local-sandbox:${profile.id}` : profile.baseUrl;
}
