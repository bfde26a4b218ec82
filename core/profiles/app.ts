import path from 'node:path';
import type { GovernorState } from '../../shared/app/ipc/contract.ts';
import type { ProfilesState } from '../../shared/app/ipc/profiles.ts';
import type { BudgetState } from '../api/governor.ts';
import type { EventHub } from '../ipc/events.ts';
import type { AppHandlers } from '../ipc/handlers.ts';
import type { MonitoredProfiles } from '../monitor/watched.ts';
import { profileHandlers } from './handlers.ts';
import { ProfileService, type ProfileServiceOptions } from './profiles.ts';

/** A key's budget as the header shows it: the cool-down as the wall-clock time it ends. */
export function governorState(
  profileId: string,
  { cooldownMs, ...budget }: BudgetState,
  now = Date.now(),
): GovernorState {
  return { profileId, ...budget, coolingDownUntil: cooldownMs > 0 ? now + cooldownMs : null };
}

/** The profile service as a command's monitor sees it: only the profiles the command names. */
export function onlyProfiles(profiles: ProfileService, ids: readonly string[]): MonitoredProfiles {
  const keep = new Set(ids);
  const only = (state: ProfilesState): ProfilesState => ({
    ...state,
    profiles: state.profiles.filter((p) => keep.has(p.id)),
  });
  return {
    state: () => only(profiles.state()),
    client: (id) => profiles.client(id),
    readyClient: (id) => profiles.readyClient(id),
    onChange: (listener) => profiles.onChange((state) => listener(only(state))),
    onApiEvent: (listener) => profiles.onApiEvent(listener),
  };
}

export type ProfilesInAppOptions = Pick<
  ProfileServiceOptions,
  'store' | 'secrets' | 'startLocalSandbox' | 'localSandboxWatchMs' | 'client' | 'damagedSettings'
> & {
  /** The app's data folder: the Local sandbox's data lives under it. */
  readonly dataDir: string;
};

/**
 * The profiles as the app runs them: their state, each key's budget (`governor.changed`) and
 * the API's activity forwarded to the windows, the keychain probed, and their calls with the
 * active key's budget (`governor.state`).
 */
export async function profilesInApp(options: ProfilesInAppOptions, events: EventHub) {
  const profiles = new ProfileService({
    store: options.store,
    secrets: options.secrets,
    startLocalSandbox: options.startLocalSandbox,
    localSandboxDir: path.join(options.dataDir, 'local-sandbox'),
    client: options.client,
    ...(options.localSandboxWatchMs !== undefined && {
      localSandboxWatchMs: options.localSandboxWatchMs,
    }),
    damagedSettings: options.damagedSettings,
  });
  profiles.onChange((state) => events.emit('profiles.changed', state));
  profiles.onApiEvent((profileId, event) => {
    if (event.type === 'budget') {
      const { type: _, ...budget } = event;
      events.emit('governor.changed', governorState(profileId, budget));
      return;
    }
    const { type: kind, operation, retryInMs, message } = event;
    events.emit('api.activity', { profileId, kind, operation, retryInMs, message });
  });
  // The keychain is probed before anything asks for a key.
  await profiles.init();
  // The active profile's client, asked for now without waiting: a Local sandbox starts at once
  // and the first window finds it starting, or running, rather than waiting for its first call.
  if (profiles.activeProfile()) void profiles.client().catch(() => undefined);
  const handlers = {
    ...profileHandlers(profiles),
    'governor.state': async () => {
      const active = profiles.activeProfile();
      if (!active) return null;
      const { profileId, client } = await profiles.client(active.id);
      return governorState(profileId, client.budget());
    },
  } satisfies Partial<AppHandlers>;
  return { profiles, handlers };
}
