import { z } from 'zod';
import { AgentsSnapshot } from '../agents.ts';
import { ProfileId } from './profiles.ts';

/*
 * Agents as the windows and the tray see them (shared/app/agents.ts): every profile's agents with
 * their states and their last day, and a gone one dismissed from the list.
 */

const AgentId = z.string().min(1).max(64);

export const agentCalls = {
  /** Every profile's agents, or the one profile's. */
  'agents.snapshot': { args: z.tuple([ProfileId.optional()]), result: AgentsSnapshot },
  /** Drops an offline or stopped agent from the list; answers the profile's agents. */
  'agents.dismiss': { args: z.tuple([ProfileId, AgentId]), result: AgentsSnapshot },
} as const;

export const agentEvents = {
  'agents.changed': AgentsSnapshot,
} as const;
