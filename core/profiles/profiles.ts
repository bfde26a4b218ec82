import { Emitter } from '../../shared/app/emitter.ts';
import {
  AddressChange,
  ProfileDraft,
  type DamagedSettings,
  type Profile,
  type ProfilesState,
} from '../../shared/app/ipc/profiles.ts';
import type { Clock } from '../../shared/node/clock.ts';
import type { ApiClient, ApiEvent } from '../api/client.ts';
import { AppError } from '../errors.ts';
import type { KeyValueStore } from '../store.ts';
import { ClientPool, type Connection, type PoolClientOptions } from './client-pool.ts';
import type { SecretStore } from './keychain.ts';
import { LocalSandbox } from './local-sandbox.ts';
import type { StartLocalSandbox } from './local-sandbox-start.ts';
import { ProfileStore } from './store.ts';

export type ProfileServiceOptions = {
  readonly store: KeyValueStore;
  readonly secrets: SecretStore;
  /** Called on the first client the Local profile is asked for, never before. */
  readonly startLocalSandbox: StartLocalSandbox;
  /** The Local sandbox's own folder inside the app's data folder. */
  readonly localSandboxDir: string;
  /**
   * How often a Local sandbox that another process runs (a `burrow` command that started it
   * first) is checked for still running; once it has gone, this process starts its own. 0: not
   * checked. Default 2 s.
   */
  readonly localSandboxWatchMs?: number;
  /** Paces the Local sandbox's waits for a data file that another process is letting go of. */
  readonly localSandboxClock?: Clock;
  readonly client?: PoolClientOptions | undefined;
  /** A settings.json set aside at start-up, said in the state for the window. */
  readonly damagedSettings?: DamagedSettings | undefined;
};

/**
 * The profiles as the rest of core sees them: the store (profiles in the settings, keys in the
 * keychain), one API client per profile, and the Local sandbox, which starts when its profile's
 * client is first asked for (the app asks for the active one's at start-up; the command line
 * only for the profile a command works on).
 */
export class ProfileService {
  private readonly store: ProfileStore;
  private readonly clients: ClientPool;
  private readonly local: LocalSandbox;
  private readonly changes = new Emitter<ProfilesState>('the profiles');

  constructor(private readonly options: ProfileServiceOptions) {
    this.store = new ProfileStore(options.store, options.secrets, () => this.changed());
    this.local = new LocalSandbox(
      options.startLocalSandbox,
      options.localSandboxDir,
      () => this.changed(),
      { watchMs: options.localSandboxWatchMs ?? 2_000, onGone: () => void this.reconnectLocal() },
      options.localSandboxClock,
    );
    this.clients = new ClientPool({
      profile: (id) => this.store.profile(id),
      connect: (profile) => this.connect(profile),
      client: options.client,
    });
  }

  /** Checks the keychain, and on the very first launch creates the Local sandbox profile. */
  async init(): Promise<void> {
    await this.store.init();
    this.changed();
  }

  state(): ProfilesState {
    return {
      profiles: this.store
        .list()
        .map((p) => (p.kind === 'local' ? { ...p, baseUrl: this.local.url } : p)),
      activeId: this.store.active,
      keychain: this.store.keys.status,
      local: this.store.localProfile() ? this.local.status : { state: 'absent' },
      ...(this.options.damagedSettings && { damagedSettings: this.options.damagedSettings }),
    };
  }

  /** The key is tried against the address first: nothing is saved unless the API accepts it. */
  async add(draft: ProfileDraft): Promise<Profile> {
    const { name, baseUrl, apiKey } = ProfileDraft.parse(draft);
    await this.store.keys.require();
    await this.clients.tryKey(baseUrl, apiKey);
    return this.store.add(name, baseUrl, apiKey);
  }

  rename(id: string, name: string): Profile {
    return this.store.rename(id, name);
  }

  async changeKey(id: string, apiKey: string): Promise<Profile> {
    const profile = this.store.profile(id);
    if (profile.kind === 'local')
      throw new AppError('PROFILE_LOCAL_KEY', 'The Local sandbox makes its own key', 'apiKey');
    await this.store.keys.require();
    await this.clients.tryKey(profile.baseUrl, apiKey);
    await this.store.keys.set(id, apiKey);
    await this.clients.drop(id);
    this.changed();
    return profile;
  }

  /**
   * Moves a remote profile to another address: the key (the one kept, or `apiKey` for the new
   * address) is tried there first, and nothing changes unless the API accepts it.
   */
  async changeAddress(id: string, change: AddressChange): Promise<Profile> {
    const { baseUrl, apiKey } = AddressChange.parse(change);
    const profile = this.store.profile(id);
    if (profile.kind === 'local')
      throw new AppError(
        'PROFILE_LOCAL_ADDRESS',
        'The Local sandbox picks its own address',
        'baseUrl',
      );
    await this.store.keys.require();
    await this.clients.tryKey(baseUrl, apiKey ?? (await this.store.keys.of(profile)));
    if (apiKey !== undefined) await this.store.keys.set(id, apiKey);
    const moved = this.store.move(id, baseUrl);
    await this.clients.drop(id);
    this.changed();
    return moved;
  }

  switch(id: string): ProfilesState {
    this.store.switch(id);
    return this.state();
  }

  /** The keychain entry goes with the profile; the Local sandbox stops (its data file stays). */
  async remove(id: string): Promise<ProfilesState> {
    // Out of the list before anything is stopped: what the stopping sets off (the sandbox's
    // "stopped" status, the monitor asking for the profile's client) must not find it and
    // start its sandbox again with its key.
    const profile = this.store.unlist(id);
    await this.clients.drop(id);
    if (profile.kind === 'local') await this.local.stop();
    await this.store.keys.delete(id);
    return this.state();
  }

  /**
   * Creates the Local sandbox profile (once) and makes it active; its client is asked for at
   * once, as the app's start-up does, so it starts without being awaited.
   */
  createLocal(): Profile {
    const profile = this.store.createLocal();
    void this.client(profile.id).catch(() => undefined);
    return profile;
  }

  activeProfile(): Profile | undefined {
    return this.store.activeProfile();
  }

  /** The client of a profile (the active one by default), made on first use. */
  async client(id = this.store.active): Promise<{ profileId: string; client: ApiClient }> {
    if (id === null)
      throw new AppError('PROFILE_NONE', 'No profile is active: add one in Settings first');
    return { profileId: id, client: await this.clients.get(id) };
  }

  /** Every change of the list, the active profile, the keychain or the Local sandbox's status. */
  onChange(listener: (state: ProfilesState) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** Each profile's client events: 429s, retries, its budget. */
  onApiEvent(listener: (profileId: string, event: ApiEvent) => void): () => void {
    return this.clients.onEvent(listener);
  }

  /** The client already made for a profile, without waiting for one (the monitor's timers). */
  readyClient(id: string): ApiClient | undefined {
    return this.clients.ready(id);
  }

  async close(): Promise<void> {
    await this.clients.close();
    await this.local.stop();
  }

  /** A remote profile's address, or the Local sandbox's once it runs with the profile's key. */
  private async connect(profile: Profile): Promise<Connection> {
    const apiKey = await this.store.keys.of(profile);
    if (profile.kind === 'remote') return { baseUrl: profile.baseUrl, apiKey };
    const keys = this.store.keys;
    const sandbox = await this.local.ensure(apiKey, (started) => keys.claim(profile, started));
    return {
      baseUrl: sandbox.url,
      // The key the sandbox accepts: the claimed one (keys.of), or its own process's.
      apiKey: sandbox.joined ? await keys.shared(profile) : await keys.of(profile),
      rateLimit: sandbox.rateLimit,
    };
  }

  /** The Local sandbox this process used has gone with its process: a client to a new one. */
  private async reconnectLocal(): Promise<void> {
    const local = this.store.localProfile();
    if (!local) return;
    await this.clients.drop(local.id);
    void this.client(local.id).catch(() => undefined);
  }

  private changed(): void {
    this.changes.emit(this.state());
  }
}
