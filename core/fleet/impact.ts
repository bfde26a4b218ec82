import type { Agent } from '../../shared/app/agents.ts';
import { GONE_STATES } from '../../shared/app/agents.ts';
import {
  newestByMajor,
  type AgentRef,
  type BulkImpact,
  type LeftOut,
  type RolloutImpact,
} from '../../shared/app/fleet.ts';
import { availability, type SessionAction } from '../../shared/app/sessions/rules.ts';
import { compareVersions } from '../../shared/app/versions.ts';

/*
 * What a bulk action will do before it runs: each agent the rules let through, each one left out
 * with its reason, and the one sentence a person confirms.
 */

/** Why an agent is left out, as a group the sentence counts ("3 run on Windows"). */
type Exclusion = { readonly group: string; readonly reason: string };

const VERB: Readonly<Record<SessionAction, string>> = {
  restart: 'Restart',
  stop: 'Stop',
  update: 'Update',
  'update-and-restart': 'Update and restart',
};

const PAST: Readonly<Record<SessionAction, string>> = {
  restart: 'restarted',
  stop: 'stopped',
  update: 'updated',
  'update-and-restart': 'updated and restarted',
};

/** The group's part of the sentence, for `n` agents: "3 run on Windows and cannot be …". */
function groupWords(group: string, n: number, action: SessionAction): string {
  const one = n === 1;
  switch (group) {
    case 'windows':
      return `${n} ${one ? 'runs' : 'run'} on Windows and cannot be ${PAST[action]} remotely`;
    case 'ssh':
      return `${n} ${one ? 'is an SSH session' : 'are SSH sessions'}, which can only be stopped`;
    case 'gone':
      return `${n} ${one ? 'is' : 'are'} not online`;
    case 'unknown':
      return `${n} ${one ? 'is' : 'are'} no longer known`;
    default:
      return `${n} cannot update now`;
  }
}

/** Why `agent` cannot take `action` now; undefined when the rules let it through. */
export function exclusionOf(
  agent: Agent | undefined,
  action: SessionAction,
): Exclusion | undefined {
  if (!agent) return { group: 'unknown', reason: 'No longer known: it may have been dismissed.' };
  if (GONE_STATES.includes(agent.state))
    return { group: 'gone', reason: `Not online (${agent.state}).` };
  const allowed = availability(agent.session, action);
  if (!allowed.allowed)
    return { group: agent.session.transport === 'ssh' ? 'ssh' : 'windows', reason: allowed.reason };
  if (action.startsWith('update') && agent.updateBlocked !== null)
    return { group: 'blocked', reason: agent.updateBlocked };
  return undefined;
}

/** "12 agents", "1 agent". */
function agentsWord(n: number): string {
  return `${n} agent${n === 1 ? '' : 's'}`;
}

export function pastOf(action: SessionAction): string {
  return PAST[action];
}

/** The impact of `action` on `refs`, found among `agents`. */
export function impactOf(
  action: SessionAction,
  refs: readonly AgentRef[],
  agents: ReadonlyMap<string, Agent>,
): BulkImpact {
  const included: AgentRef[] = [];
  const leftOut: LeftOut[] = [];
  const groups = new Map<string, number>();
  for (const ref of refs) {
    const agent = agents.get(refKey(ref));
    const exclusion = exclusionOf(agent, action);
    if (!exclusion) {
      included.push(ref);
      continue;
    }
    leftOut.push({ agent: ref, name: agent?.name ?? ref.agentId, reason: exclusion.reason });
    groups.set(exclusion.group, (groups.get(exclusion.group) ?? 0) + 1);
  }
  const profiles = new Set(included.map((ref) => ref.profileId)).size;
  const head =
    included.length > 0
      ? `${VERB[action]} ${agentsWord(included.length)} on ${profiles} profile${profiles === 1 ? '' : 's'}`
      : `No agent can be ${PAST[action]}`;
  const parts = [...groups].map(([group, n]) => groupWords(group, n, action));
  const tail =
    parts.length === 0
      ? ''
      : `; ${parts.join(', ')}: ${leftOut.length === 1 ? 'it is' : 'they are'} left out`;
  return { action, included, leftOut, profiles, summary: `${head}${tail}.` };
}

/** One agent's key among every profile's. */
export function refKey(ref: AgentRef): string {
  return `${ref.profileId}\n${ref.agentId}`;
}

/**
 * Why `agent` likely has no update: it runs the newest version of its major that any agent of
 * the fleet runs (`newest`, as the "outdated" filter compares). The API tells no versions, so
 * the platform may have a newer one: a person may still include it.
 */
function unsureOf(agent: Agent, newest: ReadonlyMap<string, string>): string | undefined {
  const version = agent.session.agent_version;
  const major = version.split('.')[0] ?? '';
  const top = newest.get(major);
  if (top === undefined || compareVersions(version, top) < 0) return undefined;
  return `Already on ${version}, the newest ${major}.x among your agents: no newer version is known.`;
}

/**
 * What a rolling update of `refs` will do: the agents it updates (restarting all but Windows
 * ones), those it cannot (not online, SSH, a refusal core remembers), and those that already run
 * the newest version of their major among `agents`, left out unless asked for.
 */
export function rolloutImpactOf(
  refs: readonly AgentRef[],
  agents: ReadonlyMap<string, Agent>,
): RolloutImpact {
  const newest = newestByMajor([...agents.values()]);
  const included: AgentRef[] = [];
  const leftOut: LeftOut[] = [];
  const unsure: LeftOut[] = [];
  let windows = 0;
  for (const ref of refs) {
    const agent = agents.get(refKey(ref));
    const name = agent?.name ?? ref.agentId;
    const exclusion = exclusionOf(agent, 'update');
    const likelyNone = agent && !exclusion ? unsureOf(agent, newest) : undefined;
    if (exclusion) leftOut.push({ agent: ref, name, reason: exclusion.reason });
    else if (likelyNone) unsure.push({ agent: ref, name, reason: likelyNone });
    else {
      included.push(ref);
      if (agent?.session.os === 'windows') windows++;
    }
  }
  const profiles = new Set(included.map((ref) => ref.profileId)).size;
  const head =
    included.length > 0
      ? `Update and restart ${agentsWord(included.length)} on ${profiles} profile${profiles === 1 ? '' : 's'}`
      : 'No agent can be updated';
  const parts = [
    ...(windows > 0
      ? [`${windows} ${windows === 1 ? 'runs' : 'run'} Windows: updated only, restart by hand`]
      : []),
    ...(unsure.length > 0
      ? [
          `${unsure.length} already ${unsure.length === 1 ? 'runs' : 'run'} the newest version known`,
        ]
      : []),
    ...(leftOut.length > 0 ? [`${leftOut.length} cannot update now`] : []),
  ];
  return {
    included,
    windows,
    leftOut,
    unsure,
    profiles,
    summary: `${head}${parts.length > 0 ? `; ${parts.join('; ')}` : ''}.`,
  };
}
