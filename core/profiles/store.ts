import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Profile, ProfileId } from '../../shared/app/ipc/profiles.ts';
import { AppError } from '../errors.ts';
import type { KeyValueStore } from '../store.ts';
import type { SecretStore } from './keychain.ts';
import { ProfileKeys } from './keys.ts';

const PROFILES = 'profiles';
const ACTIVE = 'activeProfileId';

const LOCAL_SANDBOX_NAME = 'Local sandbox';

const StoredProfiles = z.array(Profile);

function newProfileId(): string {
  return `prf_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').slice(0, 16)}`;
}

/**
 * The person's profiles: a name and an address in the settings file, the active one beside
 * them, the key in the keychain (`keys`). Every change is written at once and said to `onChange`.
 */
export class ProfileStore {
  readonly keys: ProfileKeys;
  private profiles: Profile[];
  private activeId: string | null;

  constructor(
    private readonly store: KeyValueStore,
    secrets: SecretStore,
    private readonly onChange: () => void,
  ) {
    this.keys = new ProfileKeys(secrets);
    const stored = StoredProfiles.safeParse(store.get(PROFILES));
    this.profiles = stored.success ? stored.data : [];
    const active = ProfileId.safeParse(store.get(ACTIVE));
    this.activeId =
      active.success && this.profiles.some((p) => p.id === active.data) ? active.data : null;
  }

  /** Checks the keychain; on the very first launch, makes the Local sandbox profile. */
  async init(): Promise<void> {
    await this.keys.probe();
    if (this.store.get(PROFILES) === undefined) this.createLocal();
  }

  list(): readonly Profile[] {
    return this.profiles;
  }

  get active(): string | null {
    return this.activeId;
  }

  activeProfile(): Profile | undefined {
    return this.profiles.find((p) => p.id === this.activeId);
  }

  localProfile(): Profile | undefined {
    return this.profiles.find((p) => p.kind === 'local');
  }

  profile(id: string): Profile {
    const profile = this.profiles.find((p) => p.id === id);
    if (!profile) throw new AppError('PROFILE_NOT_FOUND', `There is no profile ${id}`);
    return profile;
  }

  /** A remote profile whose key was accepted; the first one becomes active. */
  async add(name: string, baseUrl: string, apiKey: string): Promise<Profile> {
    const profile: Profile = { id: newProfileId(), name, baseUrl, kind: 'remote' };
    await this.keys.set(profile.id, apiKey);
    this.profiles = [...this.profiles, profile];
    this.activeId ??= profile.id;
    this.save();
    return profile;
  }

  rename(id: string, name: string): Profile {
    return this.replace({ ...this.profile(id), name });
  }

  /** A new address, its key already tried there. */
  move(id: string, baseUrl: string): Profile {
    return this.replace({ ...this.profile(id), baseUrl });
  }

  private replace(profile: Profile): Profile {
    this.profiles = this.profiles.map((p) => (p.id === profile.id ? profile : p));
    this.save();
    return profile;
  }

  switch(id: string): void {
    this.profile(id);
    this.activeId = id;
    this.save();
  }

  /** Out of the list (the next one active); its key stays until `keys.delete`. */
  unlist(id: string): Profile {
    const profile = this.profile(id);
    this.profiles = this.profiles.filter((p) => p.id !== id);
    if (this.activeId === id) this.activeId = this.profiles[0]?.id ?? null;
    this.save();
    return profile;
  }

  /** The Local sandbox profile (made once), active. */
  createLocal(): Profile {
    let profile = this.localProfile();
    if (!profile) {
      profile = { id: newProfileId(), name: LOCAL_SANDBOX_NAME, baseUrl: '', kind: 'local' };
      this.profiles = [...this.profiles, profile];
    }
    this.activeId = profile.id;
    this.save();
    return profile;
  }

  private save(): void {
    this.store.set(PROFILES, this.profiles);
    if (this.activeId === null) this.store.delete(ACTIVE);
    else this.store.set(ACTIVE, this.activeId);
    this.onChange();
  }
}
