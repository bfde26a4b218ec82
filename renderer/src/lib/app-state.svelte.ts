import type { Bridge } from '../../../shared/ipc/bridge.ts';
import type {
  ApiActivity,
  AppInfo,
  GovernorState,
  IpcError,
} from '../../../shared/ipc/contract.ts';
import type { Profile, ProfilesState } from '../../../shared/ipc/profiles.ts';
import type { Settings } from '../../../shared/ipc/settings.ts';
import { problemOf } from './errors.ts';
import { SessionsState } from './sessions.svelte.ts';
import { Toasts } from './toasts.svelte.ts';

/** A wait the API client is in, with the moment it ends so the header can count down. */
export type Wait = ApiActivity & { readonly until: number };

/**
 * The window's state, fed by the Bridge's events: what the main process says is true, the window
 * shows. Screens read it and call the Bridge; none of them keeps a copy of its own.
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

  constructor(readonly bridge: Bridge) {
    this.sessions = new SessionsState(bridge, this.toasts);
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
    const stops = [
      this.bridge.on('profiles.changed', (state) => {
        const failed = state.local.state === 'failed' && this.profiles?.local.state !== 'failed';
        const switched = state.activeId !== this.profiles?.activeId;
        this.profiles = state;
        if (switched) void this.loadGovernor();
        if (failed)
          this.toasts.error({
            code: 'LOCAL_SANDBOX_FAILED',
            message: state.local.message ?? 'The Local sandbox did not start',
          });
      }),
      this.bridge.on('settings.changed', (settings) => (this.settings = settings)),
      this.bridge.on('governor.changed', (state) => {
        if (state.profileId === this.profiles?.activeId) this.governor = state;
      }),
      this.bridge.on('api.activity', (activity) => {
        if (activity.profileId !== this.profiles?.activeId) return;
        this.wait = { ...activity, until: Date.now() + activity.retryInMs };
      }),
      this.sessions.start(),
    ];
    void this.load();
    return () => stops.forEach((stop) => stop());
  }

  async load(): Promise<void> {
    try {
      const [info, profiles, settings] = await Promise.all([
        this.bridge.invoke('app.info'),
        this.bridge.invoke('profiles.state'),
        this.bridge.invoke('settings.get'),
      ]);
      this.info = info;
      this.profiles = profiles;
      this.settings = settings;
      this.failure = undefined;
      void this.loadGovernor();
    } catch (error) {
      this.failure = problemOf(error);
    }
  }

  /**
   * The active profile's window as it is now: its changes come as events, but a window opened
   * (or a profile switched to) while nothing is being called would otherwise show no count.
   */
  private async loadGovernor(): Promise<void> {
    this.governor = null;
    try {
      const state = await this.bridge.invoke('governor.state');
      if (state?.profileId === this.profiles?.activeId) this.governor ??= state;
    } catch {
      // No client for the profile (a key not in the keychain): the Sessions screen says why.
    }
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
