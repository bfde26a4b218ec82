import type { ProfilesState } from '../../shared/app/ipc/profiles.ts';

/** Profiles as the app stores them in settings.json, for tests that write one by hand. */
export const LOCAL_PROFILE = {
  id: 'prf_local0001',
  name: 'Local sandbox',
  baseUrl: '',
  kind: 'local',
} as const;

export const REMOTE_PROFILE = {
  id: 'prf_prod00001',
  name: 'Prod',
  baseUrl: 'https://api.example.com',
  kind: 'remote',
} as const;

/**
 * What `profiles.state` answers for `profiles`, the first of them active and the keychain there;
 * `local` is the Local sandbox, absent unless given.
 */
export function profilesState(
  profiles: ProfilesState['profiles'],
  local: ProfilesState['local'] = { state: 'absent' },
): ProfilesState {
  return { profiles, activeId: profiles[0]?.id ?? null, keychain: { available: true }, local };
}
