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
