import { agentDisplayName, type ProfileSnapshot } from '../../../../shared/app/monitor.ts';

/** How long the token dialog waits for an agent before it says what to check. */
export const AGENT_PATIENCE_MS = 60_000;

/**
 * Where a new credential's first agent is, as the monitor's polls of the profile tell it:
 * connected (a listed session uses the credential), late (polls for a minute found none),
 * waiting, or unwatched (the profile is not being polled, so the window cannot tell).
 */
export type AgentWait =
  | { readonly state: 'connected'; readonly name: string }
  | { readonly state: 'waiting' | 'late' | 'unwatched' };

export function agentWait(
  credentialId: string,
  watch: ProfileSnapshot | undefined,
  shownAt: number,
): AgentWait {
  if (watch?.health === 'unavailable') return { state: 'unwatched' };
  const session = watch?.sessions.find((s) => s.credential.id === credentialId);
  if (session) return { state: 'connected', name: agentDisplayName(session) };
  // The monitor's last poll, not a timer of the window's: no news is only news once it polled.
  const polledAt = watch?.lastPollAt ?? shownAt;
  return { state: polledAt - shownAt >= AGENT_PATIENCE_MS ? 'late' : 'waiting' };
}
