import { Emitter } from '../../shared/app/emitter.ts';
import type { Profile } from '../../shared/app/ipc/profiles.ts';
import {
  createApiClient,
  type ApiClient,
  type ApiClientOptions,
  type ApiEvent,
} from '../api/client.ts';
import type { RateLimit } from '../api/governor.ts';

/** Client settings for every profile (tests shorten retries and limits). */
export type PoolClientOptions = Omit<ApiClientOptions, 'baseUrl' | 'apiKey' | 'onEvent'>;

/** Where a profile's client goes and with which key. */
export type Connection = {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Kept to instead of the service's (a Local sandbox started with another limit). */
  readonly rateLimit?: RateLimit | undefined;
};

export type ClientPoolOptions = {
  /** The profile of an id as it is now; throws when there is none. */
  readonly profile: (id: string) => Profile;
  /** Its address and key: may read the keychain, or start the Local sandbox. */
  readonly connect: (profile: Profile) => Promise<Connection>;
  readonly client?: PoolClientOptions | undefined;
};

/** One API client per profile (one pool, one rate window), made on first use, kept while it exists. */
export class ClientPool {
  private readonly clients = new Map<string, ApiClient>();
  private readonly events = new Emitter<{ profileId: string; event: ApiEvent }>('the API clients');

  constructor(private readonly options: ClientPoolOptions) {}

  async get(id: string): Promise<ApiClient> {
    // A profile being removed keeps its client until it is dropped: not handed out meanwhile.
    const profile = this.options.profile(id);
    const existing = this.clients.get(id);
    if (existing) return existing;
    const { baseUrl, apiKey, rateLimit } = await this.options.connect(profile);
    // Another call may have made it while this one waited for the sandbox or the keychain, or
    // the profile may have been removed meanwhile (its client would outlive it).
    const raced = this.clients.get(id);
    if (raced) return raced;
    this.options.profile(id);
    const client = createApiClient({
      ...this.options.client,
      ...(rateLimit && { rateLimit }),
      baseUrl,
      apiKey,
      onEvent: (event) => this.events.emit({ profileId: id, event }),
    });
    this.clients.set(id, client);
    return client;
  }

  /** The client already made for a profile, without waiting for one (the monitor's timers). */
  ready(id: string): ApiClient | undefined {
    return this.clients.get(id);
  }

  /** Each client's events: 429s, retries, its budget. */
  onEvent(listener: (profileId: string, event: ApiEvent) => void): () => void {
    return this.events.subscribe(({ profileId, event }) => listener(profileId, event));
  }

  async drop(id: string): Promise<void> {
    const client = this.clients.get(id);
    this.clients.delete(id);
    await client?.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.keys()].map((id) => this.drop(id)));
  }

  /** One cheap authenticated call, no retries: the person is waiting for a yes or no. */
  async tryKey(baseUrl: string, apiKey: string): Promise<void> {
    const client = createApiClient({
      ...this.options.client,
      baseUrl,
      apiKey,
      retry: { maxRetries: 0 },
    });
    try {
      await client.tunnelSessions.list({ limit: 1 });
    } finally {
      await client.close();
    }
  }
}
