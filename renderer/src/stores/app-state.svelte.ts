import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type {
  ApiActivity,
  AppInfo,
  GovernorState,
  IpcError,
} from '../../../shared/app/ipc/contract.ts';
import type { Profile, ProfilesState } from '../../../shared/app/ipc/profiles.ts';
import type { Settings } from '../../../shared/app/ipc/settings.ts';
import { problemOf } from '../lib/errors.ts';
import { followState, type FollowedState } from '../lib/follow-state.ts';
import { ActivityState } from './activity.svelte.ts';
import { DriftStatuses } from './drift.svelte.ts';
import { NotificationsState } from './notifications.svelte.ts';
import { SessionsState } from './sessions.svelte.ts';
import { Toasts } from './toasts.svelte.ts';
import { TrayState } from './tray.svelte.ts';
import { UpdatesState } from './updates.svelte.ts';

/** A wait the API client is in, with the moment it ends so the header can count down. */
export type Wait = ApiActivity & { readonly until: number };

/**
 * The window's state, fed by the Bridge's events: what the main process says is true, the window
 * shows. It makes and starts every store of the window (one a domain, each following its own
 * events); screens read them and call the Bridge, and none of them subscribes or keeps a copy.
 */
export class AppState {
  info = $state<AppInfo | undefined>();
  profiles = $state<ProfilesState | undefined>();
  settings = $state<Settings | undefined>();
  governor = $state<GovernorState | null>(null);
  wait = $state<Wait | undefined>();
  failure = $state<IpcError | undefined>();
  readonly toasts = new Toasts();
  readonly sessions: SessionsState;
  readonly tray: TrayState;
  readonly notifications: NotificationsState;
  readonly drift: DriftStatuses;
  readonly updates: UpdatesState;
  readonly activity: ActivityState;
  private followedGovernor: FollowedState<'governor.changed'> | undefined;

  constructor(readonly bridge: Bridge) {
    this.sessions = new SessionsState(bridge, this.toasts);
    this.tray = new TrayState(bridge);
    this.notifications = new NotificationsState(bridge, this.toasts);
    this.drift = new DriftStatuses(bridge);
    this.updates = new UpdatesState(bridge);
    this.activity = new ActivityState(bridge, this.toasts);
  }

  get activeProfile(): Profile | undefined {
    const state = this.profiles;
    return state?.profiles.find((p) => p.id === state.activeId);
  }

  /** True while the active profile is the Local sandbox and it has not answered yet. */
  get localStarting(): boolean {
    return this.activeProfile?.kind === 'local' && this.profiles?.local.state === 'starting';
  }

  /** Subscribes to every event, then loads the first state; returns the unsubscriber. */
  start(): () => void {
    const profiles = followState(this.bridge, 'profiles.changed', (state) =>
      this.takeProfiles(state),
    );
    const settings = followState(this.bridge, 'settings.changed', (state) => {
      this.settings = state;
    });
    const governor = followState(this.bridge, 'governor.changed', (state) => {
      const active = state.profileId === this.profiles?.activeId;
      if (active) this.governor = state;
      return active;
    });
    this.followedGovernor = governor;
    const stops = [
      profiles.stop,
      settings.stop,
      governor.stop,
      this.bridge.on('api.activity', (activity) => {
        if (activity.profileId !== this.profiles?.activeId) return;
        this.wait = { ...activity, until: Date.now() + activity.retryInMs };
      }),
      this.sessions.start(),
      this.tray.start(),
      this.notifications.start(),
      this.drift.start(),
      this.updates.start(),
      this.activity.start(),
    ];
    void this.load(profiles, settings);
    return () => stops.forEach((stop) => stop());
  }

  private async load(...states: FollowedState[]): Promise<void> {
    try {
      const [info] = await Promise.all([
        this.bridge.invoke('app.info'),
        ...states.map((state) => state.ask()),
      ]);
      this.info = info;
      this.failure = undefined;
    } catch (error) {
      this.failure = problemOf(error);
    }
  }

  private takeProfiles(state: ProfilesState): void {
    const known = this.profiles;
    this.profiles = state;
    if (state.activeId !== known?.activeId) this.loadGovernor();
    // News only: a window that opens on a failed sandbox shows it without a toast.
    if (known && state.local.state === 'failed' && known.local.state !== 'failed')
      this.toasts.error({
        code: 'LOCAL_SANDBOX_FAILED',
        message: state.local.message ?? 'The Local sandbox did not start',
      });
  }

  /**
   * The active profile's window as it is now: its changes come as events, but a window opened
   * (or a profile switched to) while nothing is being called would otherwise show no count.
   */
  private loadGovernor(): void {
    this.governor = null;
    // No client for the profile (a key not in the keychain): the Sessions screen says why.
    void this.followedGovernor?.ask().catch(() => undefined);
  }

  /** Runs a call on a person's behalf: a failure becomes a toast with its code and id. */
  async run<T>(action: () => Promise<T>, success?: string): Promise<T | undefined> {
    try {
      const value = await action();
      if (success) this.toasts.show('success', success);
      return value;
    } catch (error) {
      this.toasts.error(problemOf(error));
      return undefined;
    }
  }
}
