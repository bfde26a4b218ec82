import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { MonitorSnapshot, ProfileSnapshot } from '../../../shared/app/monitor.ts';
import type { ActionEvent } from '../../../shared/app/sessions/actions.ts';
import { AgentsState } from './agents.svelte.ts';
import { FleetState } from './fleet.svelte.ts';
import { followState } from '../lib/follow-state.ts';
import type { Toasts } from './toasts.svelte.ts';

/**
 * The monitor's view of sessions and the agents behind them, as core tells them: the Sessions
 * screen reads this and never polls of its own. An action's outcome is told as a toast.
 */
export class SessionsState {
  snapshot = $state<MonitorSnapshot | undefined>();

  /** The agents behind the sessions, as core keeps them: what the Sessions screen lists. */
  readonly agents: AgentsState;
  /** The agents picked across profiles, bulk actions' results and the rolling update. */
  readonly fleet: FleetState;

  constructor(
    private readonly bridge: Bridge,
    private readonly toasts: Toasts,
  ) {
    this.agents = new AgentsState(bridge, toasts);
    this.fleet = new FleetState(bridge, toasts);
  }

  profile(profileId: string | null | undefined): ProfileSnapshot | undefined {
    return this.snapshot?.profiles.find((p) => p.profileId === profileId);
  }

  start(): () => void {
    const followed = followState(this.bridge, 'sessions.changed', (snapshot) => {
      this.snapshot = snapshot;
    });
    // Until core answers, the screen says it is waiting.
    void followed.ask().catch(() => undefined);
    const stops = [
      followed.stop,
      this.bridge.on('sessions.action', (event) => {
        // A bulk action's or a rolling update's agents: their rows and summary say it.
        if (event.phase === 'done' && !event.grouped) this.toastResult(event);
      }),
      this.agents.start(),
      this.fleet.start(),
    ];
    return () => stops.forEach((stop) => stop());
  }

  private toastResult(event: Extract<ActionEvent, { phase: 'done' }>): void {
    const { result, agent } = event;
    if (!result.ok) {
      this.toasts.error({
        code: result.errorCode ?? 'ACTION_FAILED',
        message: result.reason,
        ...(result.operationId && { operationId: result.operationId }),
      });
      return;
    }
    // Named, as a command from the palette, the tray or a terminal is not beside its row.
    const done = {
      restart: `Restart sent to ${agent}`,
      stop: `Stopped ${agent}`,
      update: `Update sent to ${agent}`,
    } as const;
    const message =
      result.action === 'update-and-restart'
        ? (result.note ??
          (result.version
            ? `Updated ${agent} ${result.version.before} → ${result.version.after}`
            : `Updated ${agent}`))
        : done[result.action];
    this.toasts.show('success', message);
  }
}
