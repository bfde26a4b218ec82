import { z } from 'zod';
import { TunnelSession } from '../api/kinds/tunnel-sessions.ts';

/*
 * Agents as a person thinks of them ("build-box"), above the sessions the API lists: one agent
 * across its session ids (a restart or an update reconnects with a new one), with a state, a
 * "last seen" once it is gone, and its last day as bands and marks. Core keeps them (in the
 * app's data folder, so they outlive a restart of Burrow); windows and the tray show them.
 * Times are epoch milliseconds.
 */

/**
 * - `online`: the last poll listed it;
 * - `lost`: one poll missed it, not yet confirmed (it may be restarting);
 * - `offline`: confirmed gone, not by a command of ours;
 * - `restarting`, `updating`, `stopping`: a command of ours, from the click until the API
 *   confirms its outcome;
 * - `update-ready`: updated, the new version runs after a restart;
 * - `stopped`: gone after our stop.
 */
export const AgentState = z.enum([
  'online',
  'lost',
  'offline',
  'restarting',
  'updating',
  'update-ready',
  'stopping',
  'stopped',
]);
export type AgentState = z.output<typeof AgentState>;
export const AGENT_STATES = AgentState.options;

/** States in which the agent has no session: shown dimmed, with "last seen". */
export const GONE_STATES: readonly AgentState[] = ['offline', 'stopped'];

/** A stretch of the agent's day: connected or not, `to` null while it lasts. */
const AgentBand = z.object({
  state: z.enum(['online', 'offline']),
  from: z.number(),
  to: z.number().nullable(),
});
export type AgentBand = z.output<typeof AgentBand>;

/** A moment worth a mark on the timeline. */
const AgentMark = z.object({
  kind: z.enum(['restarted', 'updated', 'stopped', 'offline', 'online']),
  at: z.number(),
  /** For a person: "3.1.2 → 3.3.0", "new session ts_…". */
  detail: z.string().nullable(),
});
export type AgentMark = z.output<typeof AgentMark>;

/** The steps "Update and restart" walks through, for its progress in the row. */
const AgentStep = z.enum(['updating', 'waiting', 'restarting']);
export type AgentStep = z.output<typeof AgentStep>;

export const Agent = z.object({
  /** Short and stable (core derives it from the profile and the agent key): the address's id. */
  id: z.string(),
  profileId: z.string(),
  /** `agentKey()` of its sessions: what muting goes by. */
  key: z.string(),
  /** What a person calls it: the metadata's name, else os · region · ip. */
  name: z.string(),
  state: AgentState,
  /** When the state began. */
  since: z.number(),
  /** Its current session, or the last one seen once it is gone. */
  session: TunnelSession,
  /** When a poll last listed it. */
  lastSeenAt: z.number(),
  /** The outcome of its last change, for a person: "restarted · new session ts_…". */
  note: z.string().nullable(),
  /** Why Update cannot work now (update checks off, updated and not restarted); null if it can. */
  updateBlocked: z.string().nullable(),
  /** Update and restart in progress: where it is, and when the wait ends (epoch ms). */
  step: z.object({ name: AgentStep, until: z.number().nullable() }).nullable(),
  /** The last 24 hours, oldest first; bounded. */
  history: z.object({ bands: z.array(AgentBand), marks: z.array(AgentMark) }),
});
export type Agent = z.output<typeof Agent>;

const ProfileAgents = z.object({
  profileId: z.string(),
  /** Lost and offline first, then by name. */
  agents: z.array(Agent),
});
export type ProfileAgents = z.output<typeof ProfileAgents>;

export const AgentsSnapshot = z.object({ profiles: z.array(ProfileAgents) });
export type AgentsSnapshot = z.output<typeof AgentsSnapshot>;

/** FNV-1a over UTF-16 units, from a given basis: two of them make a 64-bit id. */
function fnv1a(text: string, basis: number): string {
  let hash = basis;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36).padStart(7, '0');
}

/**
 * An agent's short id, the same in every process and across restarts of Burrow: its profile and
 * agent key hashed (an address and a DOM id cannot carry the key's JSON).
 */
export function agentId(profileId: string, key: string): string {
  const text = `${profileId}\n${key}`;
  return `ag_${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x6b43a9b5)}`;
}
