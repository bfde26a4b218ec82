import type { Agent } from '../../shared/app/agents.ts';
import { session } from './tunnel-sessions.ts';

/**
 * An agent as core's registry lists it: online since 0 on a session of its name, of the profile
 * `acme`, nothing blocked, nothing under way, no history; `more` sets the rest.
 */
export function listedAgent(name: string, more: Partial<Agent> = {}): Agent {
  return {
    id: `ag_${name}`,
    profileId: 'acme',
    key: name,
    name,
    state: 'online',
    since: 0,
    // Made only when not given: each session() is a new id, and tests count on their order.
    session: more.session ?? session({ metadata: name }),
    lastSeenAt: 0,
    note: null,
    updateBlocked: null,
    step: null,
    history: { bands: [], marks: [] },
    ...more,
  };
}
