import type { Rollout, RolloutAgent } from '../../../../shared/app/fleet.ts';

/* The rolling update in words: each agent's step, the update's state and the time it has left. */

const OS_NAMES: Record<string, string> = { windows: 'Windows', darwin: 'macOS', linux: 'Linux' };

const secondsLeft = (until: number | null, now: number) =>
  until === null ? null : Math.max(0, Math.ceil((until - now) / 1000));

export function stepLabel(agent: RolloutAgent, now: number): string {
  const left = secondsLeft(agent.until, now);
  switch (agent.state) {
    case 'pending':
      return 'Waiting its turn';
    case 'updating':
      return 'Updating…';
    case 'waiting':
      return left === null ? 'Waiting before restart' : `Waiting ${left} s before restart`;
    case 'restarting':
      return 'Restarting…';
    case 'coming-online':
      return left === null ? 'Coming back online…' : `Coming back online · up to ${left} s`;
    case 'done':
      return agent.versionBefore && agent.versionAfter && agent.versionBefore !== agent.versionAfter
        ? `Done · ${agent.versionBefore} → ${agent.versionAfter}`
        : 'Done';
    case 'restart-yourself':
      return `Updated · restart it yourself (${OS_NAMES[agent.os] ?? agent.os})`;
    case 'failed':
      return `Failed: ${agent.reason ?? 'no reason given'}`;
    case 'skipped':
      return `Skipped: ${agent.reason ?? 'no reason given'}`;
    case 'cancelled':
      // How far it got, as its row says too (updated and not restarted, restarting).
      return agent.reason ?? 'Cancelled';
    case 'not-started':
      return 'Not started';
  }
}

const STATES: Record<Rollout['state'], string> = {
  running: 'running',
  paused: 'paused',
  stopped: 'stopped by a failure',
  cancelled: 'cancelled',
  done: 'done',
};

export function rolloutState(rollout: Rollout): string {
  return STATES[rollout.state];
}

export function isActive(rollout: Rollout | null): rollout is Rollout {
  return rollout !== null && (rollout.state === 'running' || rollout.state === 'paused');
}

/** "about 3 min left", "under a minute left"; null while the pace is unknown. */
export function timeLeft(rollout: Rollout): string | null {
  if (!isActive(rollout) || rollout.remainingMs === null) return null;
  const minutes = Math.round(rollout.remainingMs / 60_000);
  return minutes < 1 ? 'under a minute left' : `about ${minutes} min left`;
}
