import type { ProfileSnapshot } from '../../../../shared/app/monitor.ts';
import { agentWait, type AgentWait } from '../../resources/agent/agent-wait.ts';

/**
 * The agent the new service waits for. The API does not show a session's labels, so the sign
 * is the credential: a session on it that was not there when the wait began (an existing
 * credential may already carry other agents; a new one carries none).
 */
export function serviceWait(
  credentialId: string,
  watch: ProfileSnapshot | undefined,
  shownAt: number,
  before: ReadonlySet<string>,
): AgentWait {
  const fresh = watch && { ...watch, sessions: watch.sessions.filter((s) => !before.has(s.id)) };
  return agentWait(credentialId, fresh, shownAt);
}
