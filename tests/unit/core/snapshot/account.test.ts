import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../core/api/client.ts';
import { profileAccount } from '../../../../core/snapshot/account.ts';
import type { Profile } from '../../../../shared/app/ipc/profiles.ts';

/* The window, drift and `burrow --profile` name a profile's account alike: one journal, one lock. */

const client = createApiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
afterAll(() => client.close());

describe('profileAccount', () => {
  it('names a remote profile by its address and the Local sandbox by its profile', () => {
    const staging: Profile = {
      id: 'prf_s',
      kind: 'remote',
      name: 'Staging',
      baseUrl: 'https://api.example',
    };
    expect(profileAccount(staging, client)).toEqual({
      client,
      apiUrl: 'https://api.example',
      label: 'Staging',
      owner: 'profile:prf_s',
      profileName: 'Staging',
    });
    const local: Profile = {
      id: 'prf_l',
      kind: 'local',
      name: 'Local sandbox',
      baseUrl: 'http://[::1]:1',
    };
    expect(profileAccount(local, client, '"Local sandbox"')).toMatchObject({
      apiUrl: 'burrow-local-sandbox:prf_l',
      label: '"Local sandbox"',
      owner: 'profile:prf_l',
    });
  });
});
