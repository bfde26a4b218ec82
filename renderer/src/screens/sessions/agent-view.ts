import { GONE_STATES, type Agent, type AgentState } from '../../../../shared/app/agents.ts';
import { availability, type SessionAction } from '../../../../shared/app/sessions/rules.ts';
import { timeWords } from '../../../../shared/app/clock.ts';

/*
 * What an agent's row says and offers, from core's agent and the action clicked on it that core
 * has not taken over yet: the words of its state, and each action with why it cannot run now.
 */

export type Tone = 'ok' | 'busy' | 'warn' | 'gone';
export type Status = {
  readonly label: string;
  readonly detail: string | null;
  readonly tone: Tone;
};

const DOING: Record<SessionAction, string> = {
  restart: 'Restarting…',
  stop: 'Stopping…',
  update: 'Updating…',
  'update-and-restart': 'Updating…',
};

const COMMANDED: readonly AgentState[] = ['restarting', 'stopping', 'updating'];

export function isGone(agent: Agent): boolean {
  return GONE_STATES.includes(agent.state);
}

/** A command runs on it: clicked here, or under way in core. */
function isBusy(agent: Agent, pending: SessionAction | undefined): boolean {
  return pending !== undefined || agent.step !== null || COMMANDED.includes(agent.state);
}

function lastSeen(agent: Agent, now: number): string {
  return `last seen ${timeWords(agent.lastSeenAt, now)}`;
}

/** Where "Update and restart" is, with the wait counting down to its end. */
function stepLabel(step: NonNullable<Agent['step']>, now: number): string {
  if (step.name === 'updating') return 'Updating…';
  if (step.name === 'restarting') return 'Restarting…';
  const left = step.until === null ? null : Math.max(0, Math.ceil((step.until - now) / 1000));
  return left === null ? 'Waiting for the update…' : `Waiting for the update · ${left} s`;
}

export function statusOf(agent: Agent, pending: SessionAction | undefined, now: number): Status {
  if (pending) return { label: DOING[pending], detail: null, tone: 'busy' };
  if (agent.step) return { label: stepLabel(agent.step, now), detail: null, tone: 'busy' };
  switch (agent.state) {
    case 'online':
      return { label: 'Online', detail: agent.note, tone: 'ok' };
    case 'lost':
      return { label: 'Not seen in the last poll', detail: lastSeen(agent, now), tone: 'warn' };
    case 'offline':
      return { label: 'Offline', detail: lastSeen(agent, now), tone: 'gone' };
    case 'stopped':
      return { label: 'Stopped', detail: lastSeen(agent, now), tone: 'gone' };
    case 'restarting':
      return { label: DOING.restart, detail: null, tone: 'busy' };
    case 'stopping':
      return { label: DOING.stop, detail: null, tone: 'busy' };
    case 'updating':
      return { label: DOING.update, detail: null, tone: 'busy' };
    case 'update-ready':
      // The label is the update's outcome: core's note of it would say it again.
      return { label: 'Updated · restart to run it', detail: null, tone: 'ok' };
  }
}

export type ActionView = {
  readonly action: SessionAction;
  readonly label: string;
  /** Why it cannot run now, for a person; null when it can. */
  readonly blocked: string | null;
};

const ACTIONS: readonly { action: SessionAction; label: string }[] = [
  { action: 'restart', label: 'Restart' },
  { action: 'update', label: 'Update' },
  { action: 'update-and-restart', label: 'Update and restart' },
  { action: 'stop', label: 'Stop' },
];

/** Asked before a stop, wherever it is asked for (the row, the palette). */
export function stopQuestion(agent: Agent): {
  readonly title: string;
  readonly message: string;
  readonly confirmLabel: string;
} {
  return {
    title: `Stop ${agent.name}?`,
    message: `The agent on ${agent.session.ip} (${agent.session.os}) ends its session and exits; it has to be started again on its machine.`,
    confirmLabel: 'Stop agent',
  };
}

/** The actions of a connected agent; a gone one has only Dismiss. */
export function actionsOf(agent: Agent, pending: SessionAction | undefined): ActionView[] {
  const busy = isBusy(agent, pending) ? 'Wait until the current action ends.' : null;
  const lost =
    agent.state === 'lost' ? 'The last poll did not list this agent: wait for the next one.' : null;
  return ACTIONS.map(({ action, label }) => {
    const rule = availability(agent.session, action);
    const updating = action === 'update' || action === 'update-and-restart';
    return {
      action,
      label,
      blocked:
        busy ??
        lost ??
        (rule.allowed ? null : rule.reason) ??
        (updating ? agent.updateBlocked : null),
    };
  });
}
