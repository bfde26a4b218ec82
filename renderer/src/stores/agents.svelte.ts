import type {
  Agent,
  AgentsSnapshot,
  AgentState,
  ProfileAgents,
} from '../../../shared/app/agents.ts';
import type { Bridge } from '../../../shared/app/ipc/bridge.ts';
import type { SessionAction } from '../../../shared/app/sessions/rules.ts';
import { problemOf } from '../lib/errors.ts';
import { followState } from '../lib/follow-state.ts';
import type { Toasts } from './toasts.svelte.ts';

/** An action clicked and not yet seen by core: what the row shows until core's state moves. */
type Pending = {
  readonly action: SessionAction;
  readonly state: AgentState;
  readonly since: number;
};

/**
 * The agents core keeps (shared/app/agents.ts), as it tells them, and the actions a person just
 * clicked: those show in the row at once, before the call leaves, and give way to core's state
 * as soon as core reports the agent changed (its state or the moment it began), so neither
 * clocks nor the order of replies and events matter.
 */
export class AgentsState {
  snapshot = $state<AgentsSnapshot | undefined>();
  private pending = $state<Record<string, Pending>>({});

  constructor(
    private readonly bridge: Bridge,
    private readonly toasts: Toasts,
  ) {}

  start(): () => void {
    const followed = followState(this.bridge, 'agents.changed', (snapshot) => {
      this.snapshot = snapshot;
    });
    void followed.ask().catch(() => undefined);
    return followed.stop;
  }

  profile(profileId: string | null | undefined): ProfileAgents | undefined {
    return this.snapshot?.profiles.find((p) => p.profileId === profileId);
  }

  /** The action clicked on this agent that core has not taken over yet. */
  pendingOf(agent: Agent): SessionAction | undefined {
    const pending = this.pending[agent.id];
    return pending && pending.state === agent.state && pending.since === agent.since
      ? pending.action
      : undefined;
  }

  /** Runs an action on the agent's session; the row says so before the call is sent. */
  async run(agent: Agent, action: SessionAction): Promise<void> {
    this.pending = {
      ...this.pending,
      [agent.id]: { action, state: agent.state, since: agent.since },
    };
    try {
      const result = await this.bridge.invoke('sessions.run', {
        profileId: agent.profileId,
        sessionId: agent.session.id,
        action,
      });
      // A refusal is told by the action's own "done" event (a toast with its reason).
      if (!result.ok) this.settle(agent.id);
    } catch (error) {
      this.settle(agent.id);
      this.toasts.error(problemOf(error));
    }
  }

  /** Forgets an agent that is gone (offline or stopped): its row leaves the list at once. */
  async dismiss(agent: Agent): Promise<void> {
    try {
      const answer = await this.bridge.invoke('agents.dismiss', agent.profileId, agent.id);
      const left = answer.profiles.find((p) => p.profileId === agent.profileId);
      if (left && this.snapshot)
        this.snapshot = {
          profiles: this.snapshot.profiles.map((p) => (p.profileId === left.profileId ? left : p)),
        };
    } catch (error) {
      this.toasts.error(problemOf(error));
    }
  }

  private settle(agentId: string): void {
    const { [agentId]: _settled, ...rest } = this.pending;
    this.pending = rest;
  }
}
