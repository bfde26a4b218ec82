import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Emitter } from '../../shared/emitter.ts';
import {
  Profile,
  ProfileDraft,
  ProfileId,
  type KeychainStatus,
  type ProfilesState,
} from '../../shared/ipc/profiles.ts';
import {
  createApiClient,
  type ApiClient,
  type ApiClientOptions,
  type ApiEvent,
} from '../api/index.ts';
import { AppError } from '../errors.ts';
import type { KeyValueStore } from '../store.ts';
import { probeKeychain, type SecretStore } from './keychain.ts';
import { LocalSandbox, type StartLocalSandbox } from './local-sandbox.ts';

const PROFILES = 'profiles';
const ACTIVE = 'activeProfileId';

export const LOCAL_SANDBOX_NAME = 'Local sandbox';

const StoredProfiles = z.array(Profile);

export type ProfileServiceOptions = {
  readonly store: KeyValueStore;
  readonly secrets: SecretStore;
  readonly startLocalSandbox: StartLocalSandbox;
  /** The Local sandbox's own folder inside the app's data folder. */
  readonly localSandboxDir: string;
  /** Client settings for every profile (tests shorten retries and limits). */
  readonly client?: Omit<ApiClientOptions, 'baseUrl' | 'apiKey' | 'onEvent'>;
};

function newProfileId(): string {
  return `prf_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').slice(0, 16)}`;
}

/**
 * The person's profiles: a name and an address in the settings file, the key in the keychain
 * under the profile's id and nowhere else. Keys are read by core alone, once per run, and each
 * profile gets one API client (one pool, one rate window) for as long as it exists.
 */
export class ProfileService {
  private profiles: Profile[];
  private activeId: string | null;
  private keychain: KeychainStatus = { available: false, message: 'Checking the keychain…' };
  /**
   * Keys read this run, as promises so that two calls racing for a key (the Local sandbox's start
   * and the first window's first call) share one read, or one generated key. Without a keychain
   * the Local sandbox's key lives only here.
   */
  private readonly keys = new Map<string, Promise<string>>();
  private readonly clients = new Map<string, ApiClient>();
  private readonly local: LocalSandbox;
  private readonly changes = new Emitter<ProfilesState>('the profiles');
  private readonly apiEvents = new Emitter<{ profileId: string; event: ApiEvent }>(
    'the API clients',
  );

  constructor(private readonly options: ProfileServiceOptions) {
    const stored = StoredProfiles.safeParse(options.store.get(PROFILES));
    this.profiles = stored.success ? stored.data : [];
    const active = ProfileId.safeParse(options.store.get(ACTIVE));
    this.activeId =
      active.success && this.profiles.some((p) => p.id === active.data) ? active.data : null;
    this.local = new LocalSandbox(options.startLocalSandbox, options.localSandboxDir, () =>
      this.changed(),
    );
  }

  /**
   * Checks the keychain, and on the very first launch creates the Local sandbox. Its start goes
   * on in the background: the window shows "starting the Local sandbox" meanwhile.
   */
  async init(): Promise<void> {
    this.keychain = await probeKeychain(this.options.secrets);
    const firstLaunch = this.options.store.get(PROFILES) === undefined;
    if (firstLaunch) await this.createLocal();
    else if (this.localProfile()) void this.startLocal().catch(() => undefined);
    this.changed();
  }

  state(): ProfilesState {
    return {
      profiles: this.profiles.map((p) =>
        p.kind === 'local' ? { ...p, baseUrl: this.local.url } : p,
      ),
      activeId: this.activeId,
      keychain: this.keychain,
      local: this.localProfile() ? this.local.status : { state: 'absent' },
    };
  }

  /** The key is tried against the address first: nothing is saved unless the API accepts it. */
  async add(draft: ProfileDraft): Promise<Profile> {
    const { name, baseUrl, apiKey } = ProfileDraft.parse(draft);
    await this.requireKeychain();
    await tryKey(baseUrl, apiKey, this.options.client);
    const profile: Profile = { id: newProfileId(), name, baseUrl, kind: 'remote' };
    await this.options.secrets.set(profile.id, apiKey);
    this.keys.set(profile.id, Promise.resolve(apiKey));
    this.profiles = [...this.profiles, profile];
    this.activeId ??= profile.id;
    this.save();
    return profile;
  }

  rename(id: string, name: string): Profile {
    const profile = { ...this.profile(id), name };
    this.profiles = this.profiles.map((p) => (p.id === id ? profile : p));
    this.save();
    return profile;
  }

  async changeKey(id: string, apiKey: string): Promise<Profile> {
    const profile = this.profile(id);
    if (profile.kind === 'local')
      throw new AppError('PROFILE_LOCAL_KEY', 'The Local sandbox makes its own key', 'apiKey');
    await this.requireKeychain();
    await tryKey(profile.baseUrl, apiKey, this.options.client);
    await this.options.secrets.set(id, apiKey);
    this.keys.set(id, Promise.resolve(apiKey));
    await this.dropClient(id);
    this.changed();
    return profile;
  }

  switch(id: string): ProfilesState {
    this.profile(id);
    this.activeId = id;
    this.save();
    return this.state();
  }

  /** The keychain entry goes with the profile; the Local sandbox stops (its data file stays). */
  async remove(id: string): Promise<ProfilesState> {
    const profile = this.profile(id);
    // Out of the list before anything is stopped: what the stopping sets off (the sandbox's
    // "stopped" status, the monitor asking for the profile's client) must not find it and
    // start its sandbox again with its key.
    this.profiles = this.profiles.filter((p) => p.id !== id);
    if (this.activeId === id) this.activeId = this.profiles[0]?.id ?? null;
    this.save();
    await this.dropClient(id);
    if (profile.kind === 'local') await this.local.stop();
    if (this.keychain.available) await this.options.secrets.delete(id);
    this.keys.delete(id);
    return this.state();
  }

  /** Creates the Local sandbox profile (once) and makes it active; its start is not awaited. */
  async createLocal(): Promise<Profile> {
    let profile = this.localProfile();
    if (!profile) {
      profile = { id: newProfileId(), name: LOCAL_SANDBOX_NAME, baseUrl: '', kind: 'local' };
      this.profiles = [...this.profiles, profile];
    }
    this.activeId = profile.id;
    this.save();
    void this.startLocal().catch(() => undefined);
    return profile;
  }

  activeProfile(): Profile | undefined {
    return this.profiles.find((p) => p.id === this.activeId);
  }

  /** The client of a profile (the active one by default), made on first use. */
  async client(id = this.activeId): Promise<{ profileId: string; client: ApiClient }> {
    if (id === null)
      throw new AppError('PROFILE_NONE', 'No profile is active: add one in Settings first');
    const profile = this.profile(id);
    const existing = this.clients.get(id);
    if (existing) return { profileId: id, client: existing };
    const local = profile.kind === 'local' ? await this.startLocal() : undefined;
    const baseUrl = local?.url ?? profile.baseUrl;
    const apiKey = await this.keyOf(profile);
    // Another call may have made it while this one waited for the sandbox or the keychain, or
    // the profile may have been removed meanwhile (its client would outlive it).
    const raced = this.clients.get(id);
    if (raced) return { profileId: id, client: raced };
    this.profile(id);
    const client = createApiClient({
      ...this.options.client,
      ...(local?.rateLimit && { rateLimit: local.rateLimit }),
      baseUrl,
      apiKey,
      onEvent: (event) => this.apiEvents.emit({ profileId: id, event }),
    });
    this.clients.set(id, client);
    return { profileId: id, client };
  }

  /** Every change of the list, the active profile, the keychain or the Local sandbox's status. */
  subscribe(listener: (state: ProfilesState) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** Each profile's client events: 429s, retries, its budget. */
  onApiEvent(listener: (profileId: string, event: ApiEvent) => void): () => void {
    return this.apiEvents.subscribe(({ profileId, event }) => listener(profileId, event));
  }

  /** The client already made for a profile, without waiting for one (the monitor's timers). */
  readyClient(id: string): ApiClient | undefined {
    return this.clients.get(id);
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.keys()].map((id) => this.dropClient(id)));
    await this.local.stop();
  }

  private async startLocal() {
    const profile = this.localProfile();
    if (!profile) throw new AppError('PROFILE_NO_LOCAL', 'There is no Local sandbox profile');
    return this.local.ensure(await this.keyOf(profile));
  }

  private keyOf(profile: Profile): Promise<string> {
    let key = this.keys.get(profile.id);
    if (!key) {
      key = this.readKey(profile);
      this.keys.set(profile.id, key);
      // A failed read is tried again next time (the keychain may have been unlocked since).
      key.catch(() => this.keys.delete(profile.id));
    }
    return key;
  }

  private async readKey(profile: Profile): Promise<string> {
    const stored = this.keychain.available ? await this.options.secrets.get(profile.id) : null;
    if (stored) return stored;
    if (profile.kind === 'remote') {
      throw new AppError(
        'PROFILE_KEY_MISSING',
        this.keychain.available
          ? `The API key of "${profile.name}" is not in the keychain any more: enter it again in Settings`
          : (this.keychain.message ?? 'No keychain is available'),
      );
    }
    // The Local sandbox accepts whatever key it is started with; without a keychain its key
    // lives in memory for this run only, and its data (kept per account) is the same next run.
    const key = randomBytes(32).toString('base64url');
    if (this.keychain.available) await this.options.secrets.set(profile.id, key);
    return key;
  }

  private async requireKeychain(): Promise<void> {
    if (!this.keychain.available) this.keychain = await probeKeychain(this.options.secrets);
    if (!this.keychain.available)
      throw new AppError('PROFILE_NO_KEYCHAIN', this.keychain.message ?? 'No keychain', 'apiKey');
  }

  private profile(id: string): Profile {
    const profile = this.profiles.find((p) => p.id === id);
    if (!profile) throw new AppError('PROFILE_NOT_FOUND', `There is no profile ${id}`);
    return profile;
  }

  private localProfile(): Profile | undefined {
    return this.profiles.find((p) => p.kind === 'local');
  }

  private async dropClient(id: string): Promise<void> {
    const client = this.clients.get(id);
    this.clients.delete(id);
    await client?.close();
  }

  private save(): void {
    this.options.store.set(PROFILES, this.profiles);
    if (this.activeId === null) this.options.store.delete(ACTIVE);
    else this.options.store.set(ACTIVE, this.activeId);
    this.changed();
  }

  private changed(): void {
    this.changes.emit(this.state());
  }
}

/** One cheap authenticated call, no retries: the person is waiting for a yes or no. */
async function tryKey(
  baseUrl: string,
  apiKey: string,
  options: ProfileServiceOptions['client'],
): Promise<void> {
  const client = createApiClient({ ...options, baseUrl, apiKey, retry: { maxRetries: 0 } });
  try {
    await client.tunnelSessions.list({ limit: 1 });
  } finally {
    await client.close();
  }
}
