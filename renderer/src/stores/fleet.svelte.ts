import { SvelteSet } from 'svelte/reactivity';
import type { Agent } from '../../../shared/app/agents.ts';
import type {
  AgentRef,
  BulkAgentResult,
  BulkImpact,
  Rollout,
  RolloutImpact,
  RolloutOptions,
} from '../../../shared/app/fleet.ts';
import { outcomeHolds } from '../../../shared/app/fleet-outcome.ts';
import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { SessionAction } from '../../../shared/app/sessions/rules.ts';
import { problemOf } from '../lib/errors.ts';
import { followState, type FollowedState } from '../lib/follow-state.ts';
import type { Toasts } from './toasts.svelte.ts';

const refOf = (agent: Agent): AgentRef => ({ profileId: agent.profileId, agentId: agent.id });

/**
 * The fleet as the window holds it: which agents a person picked (by `Agent.id`, unique across
 * profiles), what the last bulk action did to each, and the rolling update core runs, as core
 * tells it (it goes on whatever the window does, so a reload asks for it again).
 */
export class FleetState {
  readonly selected = new SvelteSet<string>();
  /**
   * The last bulk action's result per agent id: each is shown while it holds of its agent
   * (shared/app/fleet-outcome.ts), until the next bulk action or rolling update.
   */
  results = $state<Record<string, BulkAgentResult>>({});
  /** The last bulk action's summary ("11 restarted, 1 failed (update checks off)"). */
  private lastSummary = $state<string | undefined>();
  rollout = $state<Rollout | null>(null);
  /** The checkbox a plain click last set: a shift-click sets the range from it. */
  private anchor: string | undefined;
  private followed: FollowedState<'rollout.changed'> | undefined;

  constructor(
    private readonly bridge: Bridge,
    private readonly toasts: Toasts,
  ) {}

  start(): () => void {
    this.followed = followState(this.bridge, 'rollout.changed', (rollout) => {
      this.rollout = rollout;
    });
    void this.followed.ask().catch(() => undefined);
    return this.followed.stop;
  }

  /**
   * Picks or unpicks `agent`; with `range`, every agent of `shown` between it and the last one
   * clicked takes the same state (the order the list shows, across groups).
   */
  toggle(agent: Agent, shown: readonly Agent[], range: boolean): void {
    const pick = !this.selected.has(agent.id);
    const from = range && this.anchor ? shown.findIndex((a) => a.id === this.anchor) : -1;
    const to = shown.findIndex((a) => a.id === agent.id);
    const span =
      from < 0 || to < 0 ? [agent] : shown.slice(Math.min(from, to), Math.max(from, to) + 1);
    for (const one of span) {
      if (pick) this.selected.add(one.id);
      else this.selected.delete(one.id);
    }
    this.anchor = agent.id;
  }

  selectAll(agents: readonly Agent[]): void {
    for (const agent of agents) this.selected.add(agent.id);
  }

  clear(): void {
    this.selected.clear();
    this.anchor = undefined;
  }

  /** The last bulk action's summary while any of its outcomes holds of the agents `all`. */
  summary(all: readonly Agent[]): string | undefined {
    // A lookup for this call, not state: a plain record, not a (reactive) map.
    const byId: Partial<Record<string, Agent>> = Object.fromEntries(
      all.map((agent) => [agent.id, agent]),
    );
    const holds = Object.values(this.results).some((result) =>
      outcomeHolds(result, byId[result.agent.agentId]),
    );
    return holds ? this.lastSummary : undefined;
  }

  /** The picked agents among those core still lists. */
  picked(all: readonly Agent[]): Agent[] {
    return all.filter((agent) => this.selected.has(agent.id));
  }

  /** What `action` would do to `agents`, per rule; undefined (and a toast) if core refuses. */
  async impact(action: SessionAction, agents: readonly Agent[]): Promise<BulkImpact | undefined> {
    try {
      return await this.bridge.invoke('fleet.impact', { action, agents: agents.map(refOf) });
    } catch (error) {
      this.toasts.error(problemOf(error));
      return undefined;
    }
  }

  /** Runs `action` on `agents`: each one's result goes to its row, the summary to the status. */
  async run(action: SessionAction, agents: readonly Agent[]): Promise<void> {
    this.forgetResults();
    try {
      const done = await this.bridge.invoke('fleet.run', { action, agents: agents.map(refOf) });
      this.results = Object.fromEntries(done.results.map((r) => [r.agent.agentId, r]));
      this.lastSummary = done.summary;
    } catch (error) {
      this.toasts.error(problemOf(error));
    }
  }

  /** What a rolling update of `agents` would do; undefined (and a toast) if core refuses. */
  async rolloutImpact(agents: readonly Agent[]): Promise<RolloutImpact | undefined> {
    try {
      return await this.bridge.invoke('rollout.impact', { agents: agents.map(refOf) });
    } catch (error) {
      this.toasts.error(problemOf(error));
      return undefined;
    }
  }

  /** Starts a rolling update of `agents`; false (and a toast saying why) if core refuses. */
  async startRollout(agents: readonly Agent[], options: RolloutOptions): Promise<boolean> {
    try {
      const request = { agents: agents.map(refOf), options };
      await this.answered(() => this.bridge.invoke('rollout.start', request));
      // The rolling update's panel says what happens to the agents now.
      this.forgetResults();
      return true;
    } catch (error) {
      this.toasts.error(problemOf(error));
      return false;
    }
  }

  /** A call's answer, unless the events already told something newer (the update went on). */
  private async answered(make: () => Promise<Rollout>): Promise<void> {
    if (this.followed) return this.followed.call(make);
    this.rollout = await make();
  }

  private forgetResults(): void {
    this.results = {};
    this.lastSummary = undefined;
  }

  /** Pauses, resumes or cancels the running rollout, or puts away one that ended. */
  async control(verb: 'pause' | 'resume' | 'cancel' | 'dismiss'): Promise<void> {
    const id = this.rollout?.id;
    if (id === undefined) return;
    try {
      await this.answered(() => this.bridge.invoke(`rollout.${verb}`, id));
    } catch (error) {
      this.toasts.error(problemOf(error));
    }
  }
}
