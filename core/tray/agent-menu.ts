import type { Agent, AgentState } from '../../shared/app/agents.ts';
import { clockTime } from '../../shared/app/clock.ts';
import {
  availability,
  SESSION_ACTIONS,
  type SessionAction,
} from '../../shared/app/sessions/rules.ts';
import type { TrayAction, TrayConfirm, TrayItem } from '../../shared/app/tray.ts';
import { item, open, separator } from './items.ts';

/* One agent in the tray: where it stands in its profile's section, and its submenu. */

export type TrayProfile = { readonly id: string; readonly name: string; readonly active: boolean };

/** What the tray shows of an agent: an `Agent` of the agents service, or plain data in tests. */
export type TrayAgent = Pick<
  Agent,
  'id' | 'key' | 'name' | 'state' | 'session' | 'lastSeenAt' | 'updateBlocked'
>;

/** Agents needing a look first (lost, offline), then those mid-command, the running, the stopped. */
const STATE_ORDER: Readonly<Record<AgentState, number>> = {
  lost: 0,
  offline: 1,
  restarting: 2,
  updating: 2,
  stopping: 2,
  'update-ready': 3,
  online: 4,
  stopped: 5,
};

const ACTION_LABELS: Readonly<Record<SessionAction, string>> = {
  restart: 'Restart',
  stop: 'Stop',
  update: 'Update',
  'update-and-restart': 'Update and restart',
};

/** The order a section lists agents in: by state (lost and offline first), then by name. */
export function trayOrder(agents: readonly TrayAgent[]): TrayAgent[] {
  return [...agents].sort(
    (a, b) =>
      STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
}

/** Why this agent takes no command now, if it does not. */
function agentBlocked(state: AgentState): string | undefined {
  switch (state) {
    case 'online':
    case 'update-ready':
      return undefined;
    case 'lost':
      return 'The last poll did not list it: it may be restarting';
    case 'offline':
    case 'stopped':
      return 'It is not connected';
    case 'restarting':
    case 'updating':
    case 'stopping':
      return `It is ${state}`;
  }
}

/** A few words after the agent's name: how it is, and since when once it is gone. */
function stateWords(agent: TrayAgent, now: number): string {
  switch (agent.state) {
    case 'online':
      return agent.session.agent_version;
    case 'lost':
      return 'missed the last poll';
    case 'offline':
    case 'stopped':
      return `${agent.state} · last seen ${clockTime(agent.lastSeenAt, now)}`;
    case 'update-ready':
      return 'updated, restart to run it';
    case 'restarting':
    case 'updating':
    case 'stopping':
      return `${agent.state}…`;
  }
}

/** A stopped agent does not come back by itself: both shells ask first, in these words. */
function stopQuestion(agent: TrayAgent, profileName: string): TrayConfirm {
  const { ip, os } = agent.session;
  return {
    title: 'Stop this agent?',
    message: `${agent.name} (${profileName}, on ${ip}, ${os}) ends its session and exits; it has to be started again on its machine.`,
    confirmLabel: 'Stop agent',
    destructive: true,
  };
}

function agentAction(
  agent: TrayAgent,
  profile: TrayProfile,
  action: SessionAction,
  blocked: string | undefined,
): TrayItem {
  const base = { type: 'item' as const, id: `agent:${agent.id}:${action}` };
  const act = {
    name: `session.${action}`,
    by: 'core',
    profileId: profile.id,
    sessionId: agent.session.id,
  } as TrayAction;
  const rule = availability(agent.session, action);
  if (!rule.allowed)
    return {
      ...base,
      label: `${ACTION_LABELS[action]} (${rule.short})`,
      enabled: false,
      tooltip: rule.reason,
      action: act,
    };
  const why =
    blocked ??
    agentBlocked(agent.state) ??
    (action === 'update' || action === 'update-and-restart' ? agent.updateBlocked : null);
  if (why !== undefined && why !== null)
    return { ...base, label: ACTION_LABELS[action], enabled: false, tooltip: why, action: act };
  return {
    ...base,
    label: ACTION_LABELS[action],
    enabled: true,
    action: act,
    ...(action === 'stop' && { confirm: stopQuestion(agent, profile.name) }),
  };
}

export function agentMenu(
  agent: TrayAgent,
  profile: TrayProfile,
  blocked: string | undefined,
  now: number,
  muted = false,
): TrayItem {
  const id = `agent:${agent.id}`;
  const { session } = agent;
  const gone = agent.state === 'offline' || agent.state === 'stopped';
  return {
    type: 'submenu',
    id,
    label: `${agent.name} · ${stateWords(agent, now)}${muted ? ' · muted' : ''}`,
    enabled: true,
    tooltip: `${session.os} · ${session.region} · ${session.ip} · ${session.transport} · ${session.id}`,
    items: [
      item(`${id}:open`, 'Open in Burrow', open('sessions', profile.id, agent.id)),
      // A gone agent has no session to command: its actions would all be greyed out.
      ...(gone
        ? []
        : [
            separator(`${id}:actions`),
            ...SESSION_ACTIONS.map((action) => agentAction(agent, profile, action, blocked)),
          ]),
      separator(`${id}:copy`),
      item(`${id}:copy-id`, gone ? 'Copy last session id' : 'Copy session id', {
        name: 'clipboard.copy',
        by: 'shell',
        text: session.id,
      }),
      item(`${id}:copy-ip`, 'Copy IP address', {
        name: 'clipboard.copy',
        by: 'shell',
        text: session.ip,
      }),
    ],
  };
}
