import type { Agent, AgentState } from '../../../../shared/app/agents.ts';
import type { Profile } from '../../../../shared/app/ipc/profiles.ts';
import { inHeldOrder } from './held-order.ts';

/*
 * What the fleet's list says above and beside its rows: the count of each state, the profiles'
 * groups with their colours.
 */

/** The states' words in the heading's counts, in the order they are listed. */
const STATE_WORDS: Record<AgentState, string> = {
  online: 'online',
  lost: 'not seen in the last poll',
  offline: 'offline',
  restarting: 'restarting',
  updating: 'updating',
  'update-ready': 'updated, to restart',
  stopping: 'stopping',
  stopped: 'stopped',
};

/** "12 online · 2 offline · 1 updating": every state some agent is in, online first. */
export function stateCounts(agents: readonly Agent[]): string {
  const counts = new Map<AgentState, number>();
  for (const { state } of agents) counts.set(state, (counts.get(state) ?? 0) + 1);
  return (Object.keys(STATE_WORDS) as AgentState[])
    .filter((state) => counts.has(state))
    .map((state) => `${counts.get(state)} ${STATE_WORDS[state]}`)
    .join(' · ');
}

export const STATE_CHOICES = Object.entries(STATE_WORDS) as [AgentState, string][];

/** One line of the list: a profile's heading, or one of its agents. */
export type FleetLine =
  | {
      readonly kind: 'profile';
      readonly profile: Pick<Profile, 'id' | 'name'>;
      readonly count: number;
    }
  | { readonly kind: 'agent'; readonly agent: Agent };

/** The agents under their profiles' headings, profiles in their own order; none without agents. */
function grouped(
  agents: readonly Agent[],
  profiles: readonly Pick<Profile, 'id' | 'name'>[],
): FleetLine[] {
  return profiles.flatMap((profile) => {
    const own = agents.filter((agent) => agent.profileId === profile.id);
    if (own.length === 0) return [];
    return [
      { kind: 'profile', profile, count: own.length } as const,
      ...own.map((agent) => ({ kind: 'agent', agent }) as const),
    ];
  });
}

/**
 * The list's lines: `agents` in `held`'s order when the pointer holds it (agents by id; those
 * that came since after them), then under their profiles' headings when there are `profiles`.
 * The order is held among agents, never among lines, so an agent is always under its own
 * profile's heading, whatever the order was.
 */
export function fleetLines(
  agents: readonly Agent[],
  profiles: readonly Pick<Profile, 'id' | 'name'>[] | undefined,
  held: readonly string[] | undefined,
): FleetLine[] {
  const ordered = held ? inHeldOrder(agents, held, (agent) => agent.id) : agents;
  return profiles
    ? grouped(ordered, profiles)
    : ordered.map((agent) => ({ kind: 'agent', agent }) as const);
}
