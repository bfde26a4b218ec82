import type { agentCalls } from '../../shared/app/ipc/agents.ts';
import type { HandlersOf } from '../ipc/handlers.ts';
import type { AgentsService } from './service.ts';

/** The agents calls of the contract. */
export function agentHandlers(agents: AgentsService): HandlersOf<typeof agentCalls> {
  return {
    'agents.snapshot': (profileId) => agents.snapshot(profileId),
    'agents.dismiss': (profileId, agentId) => agents.dismiss(profileId, agentId),
  };
}
