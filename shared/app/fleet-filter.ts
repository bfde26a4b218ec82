import type { Agent } from './agents.ts';
import { newestByMajor, type FleetFilter } from './fleet.ts';
import { compareVersions } from './versions.ts';

/*
 * The fleet's filters, once: the window filters the agents it holds, `burrow` the agents it
 * listed, and both mean the same by "outdated" or "below 3.2.0".
 */

/** `build-*`, `*box?`: `*` any run of characters, `?` one; the rest literal, whole name. */
export function globMatcher(glob: string): (name: string) => boolean {
  const pattern = glob
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const regex = new RegExp(`^${pattern}$`, 'is');
  return (name) => regex.test(name);
}

/** The agents `filter` keeps, in their order; "outdated" compares among all of `agents`. */
export function filterAgents<A extends Agent>(agents: readonly A[], filter: FleetFilter): A[] {
  const newest = filter.outdated ? newestByMajor(agents) : undefined;
  const nameMatches = filter.name === undefined ? undefined : globMatcher(filter.name);
  const text = filter.text?.trim().toLowerCase();
  const within = <T>(list: readonly T[] | undefined, value: T) =>
    list === undefined || list.length === 0 || list.includes(value);
  return agents.filter((agent) => {
    const { session } = agent;
    if (!within(filter.profileIds, agent.profileId)) return false;
    if (!within(filter.states, agent.state)) return false;
    if (!within(filter.os, session.os)) return false;
    if (!within(filter.regions, session.region)) return false;
    if (filter.versionBelow !== undefined && !isBelow(session.agent_version, filter.versionBelow))
      return false;
    if (newest !== undefined) {
      const top = newest.get(session.agent_version.split('.')[0] ?? '');
      if (top === undefined || compareVersions(session.agent_version, top) >= 0) return false;
    }
    if (nameMatches !== undefined && !nameMatches(agent.name)) return false;
    if (text) {
      const haystack = `${agent.name}\n${session.metadata ?? ''}`.toLowerCase();
      if (!haystack.includes(text)) return false;
    }
    return true;
  });
}

function isBelow(version: string, limit: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(version) && compareVersions(version, limit) < 0;
}
