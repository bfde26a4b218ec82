import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { Emitter } from '../../shared/app/emitter.ts';
import type { ProfilesState } from '../../shared/app/ipc/profiles.ts';
import type { Settings } from '../../shared/app/ipc/settings.ts';
import {
  unavailableSnapshot,
  type MonitorEvent,
  type MonitorSnapshot,
} from '../../shared/app/monitor.ts';
import type { ApiClient, ApiEvent } from '../api/client.ts';
import type { Clock } from '../../shared/node/clock.ts';
import { createSessionMonitor, type ExpectedCommand, type SessionMonitor } from './monitor.ts';

/** What the monitor needs of the profiles: their list, each one's single API client, its events. */
export interface MonitoredProfiles {
  state(): ProfilesState;
  client(id: string): Promise<{ profileId: string; client: ApiClient }>;
  /** The client already made for a profile, if any (it is dropped when the key changes). */
  readyClient(id: string): ApiClient | undefined;
  onChange(listener: (state: ProfilesState) => void): () => void;
  /** Each client's events (429s, retries), by profile. */
  onApiEvent(listener: (profileId: string, event: ApiEvent) => void): () => void;
}

/**
 * The profiles as far as asking for the Local sandbox's client again could end otherwise: its start
 * in progress or failed left out, which an ask makes itself. Asked again on those, a sandbox that
 * cannot start (a damaged data file, the keychain gone) was started again at once, and again, a
 * core busy for as long as the app ran; running, it counts (a window's call may have started it).
 */
function askedUnder(state: ProfilesState): string {
  const running = state.local.state === 'running';
  return JSON.stringify({
    ...state,
    local: running,
    profiles: state.profiles.map((p) =>
      p.kind === 'local' && !running ? { ...p, baseUrl: '' } : p,
    ),
  });
}

/** The poll interval, and its changes. */
export interface PollSettings {
  get(): Settings;
  onChange(listener: (settings: Settings) => void): () => void;
}

export type WatchedProfilesOptions = {
  readonly profiles: MonitoredProfiles;
  readonly settings: PollSettings;
  readonly clock?: Clock;
  readonly now?: () => number;
  /** Tests only: poll this often whatever the setting says (its floor of 5 s is for people). */
  readonly pollIntervalMs?: number | undefined;
};

/**
 * The monitor, following the profiles: every profile whose client is ready is polled with that
 * very client (its governor, its budget), the others are asked for theirs (the Local sandbox
 * may still be starting, a key may be missing: that profile waits for the next change and its
 * snapshot says why). A removed profile, or one whose key changed, stops being polled with the
 * old client. The poll interval follows the settings.
 */
export class WatchedProfiles {
  readonly monitor: SessionMonitor;
  private readonly profiles: MonitoredProfiles;
  /** The clients the monitor polls with, to notice when a profile's client is replaced. */
  private readonly polled = new Map<string, ApiClient>();
  /** Why a profile has no client to poll with (a key missing from the keychain), by id. */
  private readonly unavailable = new Map<string, string>();
  /** Whether the Local sandbox's client is being asked for: one start at a time. */
  private askingLocal = false;
  /** The profiles (`askedUnder`) as the Local sandbox's client was last refused. */
  private localRefusedUnder: string | undefined;
  /** Each monitored profile's `onEvent`: the profile's client events go on to the monitor. */
  private readonly apiListeners = new Map<string, (event: ApiEvent) => void>();
  private readonly snapshots = new Emitter<MonitorSnapshot>('the sessions snapshot');
  private readonly stops: (() => void)[] = [];
  private closed = false;

  constructor(options: WatchedProfilesOptions) {
    this.profiles = options.profiles;
    const { settings } = options;
    const intervalMs = (seconds: number) => options.pollIntervalMs ?? seconds * 1000;
    this.monitor = createSessionMonitor({
      clock: options.clock,
      now: options.now,
      intervalMs: intervalMs(settings.get().pollIntervalSeconds),
      clientFor: (profileId, onEvent) => {
        const client = this.polled.get(profileId);
        if (!client) throw new Error(`No client is ready for profile ${profileId}`);
        this.apiListeners.set(profileId, onEvent);
        // The client is the profile's own, shared with the windows: dropping the profile from
        // the monitor must not close it (ProfileService does, when the profile goes).
        return { ...client, close: async () => undefined };
      },
    });
    this.stops.push(
      this.monitor.onSnapshot(() => this.snapshotChanged()),
      settings.onChange((value) =>
        this.monitor.setIntervalMs(intervalMs(value.pollIntervalSeconds)),
      ),
      options.profiles.onChange(() => this.follow()),
      options.profiles.onApiEvent((profileId, event) => this.apiListeners.get(profileId)?.(event)),
    );
    this.follow();
  }

  /** The monitor's snapshot, and the profiles it cannot poll with the reason. */
  snapshot(profileId?: string): MonitorSnapshot {
    const snapshot = this.monitor.snapshot();
    const profiles = [...snapshot.profiles];
    for (const [id, reason] of this.unavailable)
      if (!profiles.some((p) => p.profileId === id)) profiles.push(unavailableSnapshot(id, reason));
    return {
      ...snapshot,
      profiles:
        profileId === undefined ? profiles : profiles.filter((p) => p.profileId === profileId),
    };
  }

  onSnapshot(listener: (snapshot: MonitorSnapshot) => void): () => void {
    return this.snapshots.subscribe(listener);
  }

  onEvent(listener: (event: MonitorEvent) => void): () => void {
    return this.monitor.onEvent(listener);
  }

  /** A session the last poll listed, if it did. */
  findSession(profileId: string, sessionId: string): TunnelSession | undefined {
    const profile = this.monitor.snapshot().profiles.find((p) => p.profileId === profileId);
    return profile?.sessions.find((s) => s.id === sessionId);
  }

  /** A command of ours was accepted; the profile may have been removed while it was on its way. */
  expect(profileId: string, sessionId: string, command: ExpectedCommand): void {
    if (this.polled.has(profileId)) this.monitor.expect(profileId, sessionId, command);
  }

  /**
   * One poll of the profile now (after one in progress), so that what a command of ours did
   * shows in seconds, not at the next poll; a profile no longer polled is skipped.
   */
  async pollNow(profileId: string): Promise<void> {
    if (this.polled.has(profileId)) await this.monitor.pollNow(profileId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
    this.snapshots.clear();
    await this.monitor.close();
  }

  private follow(): void {
    if (this.closed) return;
    const listed = () => new Set(this.profiles.state().profiles.map((p) => p.id));
    const ids = listed();
    for (const [id, client] of this.polled)
      if (!ids.has(id) || this.profiles.readyClient(id) !== client) this.polled.delete(id);
    for (const id of this.unavailable.keys()) if (!ids.has(id)) this.unavailable.delete(id);
    this.apply();
    // Asked for again at each change, until the profile is polled or gone; the Local sandbox only
    // at a change its own start did not make (`askedUnder`).
    const stillWanted = (id: string) => !this.closed && !this.polled.has(id) && listed().has(id);
    const state = this.profiles.state();
    const localId = state.profiles.find((p) => p.kind === 'local')?.id;
    const under = askedUnder(state);
    for (const id of ids) {
      if (this.polled.has(id)) continue;
      const local = id === localId;
      if (local && (this.askingLocal || this.localRefusedUnder === under)) continue;
      if (local) this.askingLocal = true;
      // The Local sandbox's ask has ended: refused under these profiles, or not.
      const asked = (refusedUnder?: string) => {
        if (!local) return;
        this.askingLocal = false;
        this.localRefusedUnder = refusedUnder;
      };
      this.profiles.client(id).then(
        ({ client }) => {
          asked();
          this.unavailable.delete(id);
          if (!stillWanted(id)) return;
          this.polled.set(id, client);
          this.apply();
        },
        (error: unknown) => {
          asked(under);
          // Said where the sessions would be, until a change of the profiles tries again.
          if (!stillWanted(id)) return;
          this.unavailable.set(id, error instanceof Error ? error.message : String(error));
          this.snapshotChanged();
          // A change while it was asked (one the refusal made counts too) is tried at once.
          if (local && askedUnder(this.profiles.state()) !== under) this.follow();
        },
      );
    }
    this.snapshotChanged();
  }

  private apply(): void {
    for (const id of this.apiListeners.keys())
      if (!this.polled.has(id)) this.apiListeners.delete(id);
    this.monitor.setProfiles([...this.polled.keys()]);
  }

  private snapshotChanged(): void {
    if (!this.closed) this.snapshots.emit(this.snapshot());
  }
}
