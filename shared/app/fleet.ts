import { z } from 'zod';
import { AgentState, type Agent } from './agents.ts';
import { ActionResult, SessionActionName } from './sessions/actions.ts';
import { compareVersions } from './versions.ts';

/*
 * The fleet: every profile's agents at once, picked by filters people combine, acted on many at
 * a time, and updated a few at a time by a rolling update that keeps the API's rule (update,
 * wait at least 10 s from the accepted update, restart; never restart a Windows agent). The
 * window, the tray and `burrow` all go through core's one fleet service; this is what they say
 * to it. Times are epoch milliseconds.
 */

const ProfileRef = z.string().min(1).max(64);
const AgentRefId = z.string().min(1).max(64);
/** A version as agents report it: "3.2.1". */
export const Version = z.string().regex(/^\d{1,6}\.\d{1,6}\.\d{1,6}$/, 'must look like 3.2.1');

/** One agent of one profile: `Agent.id` is unique per profile only in principle, so both. */
const AgentRef = z.strictObject({ profileId: ProfileRef, agentId: AgentRefId });
export type AgentRef = z.output<typeof AgentRef>;

/** Every field narrows the selection; an absent field narrows nothing. */
const FleetFilter = z.strictObject({
  profileIds: z.array(ProfileRef).max(100).optional(),
  states: z.array(AgentState).max(8).optional(),
  /** As the API's `os`: linux, darwin, windows… */
  os: z.array(z.string().min(1).max(32)).max(16).optional(),
  /** Runs a version below this one. */
  versionBelow: Version.optional(),
  /** Not on the newest version of its major seen among the account's agents. */
  outdated: z.boolean().optional(),
  regions: z.array(z.string().min(1).max(32)).max(32).optional(),
  /** Case-insensitive, over the agent's name and its session's metadata. */
  text: z.string().max(200).optional(),
  /** A glob over names (`build-*`), as `burrow --name` takes it. */
  name: z.string().min(1).max(200).optional(),
});
export type FleetFilter = z.output<typeof FleetFilter>;

/** At most this many agents in one bulk action or rolling update. */
const MAX_FLEET_SELECTION = 5_000;

const FleetSelection = z.array(AgentRef).min(1).max(MAX_FLEET_SELECTION);

export const BulkRequest = z.strictObject({
  action: SessionActionName,
  agents: FleetSelection,
});
export type BulkRequest = z.input<typeof BulkRequest>;

/** An agent left out of an action, and why, in words ("runs on Windows: restart it yourself"). */
const LeftOut = z.object({ agent: AgentRef, name: z.string(), reason: z.string() });
export type LeftOut = z.output<typeof LeftOut>;

/**
 * What acting on a selection will do, said before it starts, for its one confirmation: a bulk
 * action and a rolling update each add what is theirs.
 */
const SelectionImpact = z.object({
  included: z.array(AgentRef),
  leftOut: z.array(LeftOut),
  /** How many profiles the included agents are on. */
  profiles: z.int(),
  /**
   * The confirmation's sentence: "Restart 12 agents on 2 profiles; 3 run on Windows and cannot
   * be restarted remotely: they are left out."
   */
  summary: z.string(),
});

/** What a bulk action will do, per rule. */
export const BulkImpact = SelectionImpact.extend({ action: SessionActionName });
export type BulkImpact = z.output<typeof BulkImpact>;

const BulkAgentResult = z.object({
  agent: AgentRef,
  name: z.string(),
  /**
   * The agent's `since` once core had taken the outcome in: the outcome speaks for the agent
   * until its state moves on. Null when core did not know the agent then.
   */
  since: z.number().nullable(),
  /** Null for one left out before any call (its reason is then in `LeftOut`). */
  result: ActionResult.nullable(),
});
export type BulkAgentResult = z.output<typeof BulkAgentResult>;

export const BulkResult = z.object({
  action: SessionActionName,
  results: z.array(BulkAgentResult),
  leftOut: z.array(LeftOut),
  /** "11 restarted, 1 failed (update checks off)". */
  summary: z.string(),
});
export type BulkResult = z.output<typeof BulkResult>;

export const RolloutImpactRequest = z.strictObject({ agents: FleetSelection });
export type RolloutImpactRequest = z.input<typeof RolloutImpactRequest>;

/**
 * What a rolling update of these agents will do: who is updated (and restarted, but for Windows
 * agents), who is left out for sure and why, and who runs the newest version of its major that
 * its account runs, so likely has nothing newer: left out unless a person asks for them too. Its
 * summary reads "Update and restart 4 agents on 2 profiles; 2 are left out."
 */
export const RolloutImpact = SelectionImpact.extend({
  /** Of the included, how many run Windows: updated only, to be restarted by hand. */
  windows: z.int(),
  unsure: z.array(LeftOut),
});
export type RolloutImpact = z.output<typeof RolloutImpact>;

export const RolloutOptions = z.strictObject({
  /** Agents updated and restarted together. */
  batch: z.int().min(1).max(50).default(1),
  /** A first batch of this many before the others (0: none). */
  canary: z.int().min(0).max(50).default(0),
  /** A failed agent stops the rollout, or is skipped and the rollout goes on. */
  onFailure: z.enum(['stop', 'skip']).default('stop'),
  /** How long to wait for an agent's new session after its restart. */
  onlineTimeoutMs: z.int().min(10_000).max(600_000).default(60_000),
});
export type RolloutOptions = z.output<typeof RolloutOptions>;

export const RolloutRequest = z.strictObject({
  agents: FleetSelection,
  options: RolloutOptions,
});
export type RolloutRequest = z.input<typeof RolloutRequest>;

/**
 * One agent's way through a rollout: pending → updating → waiting (the 10 s from the accepted
 * update) → restarting → coming-online → done; a Windows agent ends at `restart-yourself` once
 * updated; `failed` and `skipped` carry a reason in words. Once the rollout ends early, an agent
 * it never reached is `not-started`, and one it was on when cancelled is `cancelled`, its reason
 * saying how far it got.
 */
const RolloutAgentState = z.enum([
  'pending',
  'updating',
  'waiting',
  'restarting',
  'coming-online',
  'done',
  'restart-yourself',
  'failed',
  'skipped',
  'cancelled',
  'not-started',
]);
export type RolloutAgentState = z.output<typeof RolloutAgentState>;

const RolloutAgent = z.object({
  agent: AgentRef,
  name: z.string(),
  profileName: z.string(),
  os: z.string(),
  /** Its batch, from 0 (the canary batch when there is one). */
  batch: z.int(),
  state: RolloutAgentState,
  /** Until when the current step waits (the 10 s, the online timeout); null otherwise. */
  until: z.number().nullable(),
  versionBefore: z.string().nullable(),
  versionAfter: z.string().nullable(),
  reason: z.string().nullable(),
});
export type RolloutAgent = z.output<typeof RolloutAgent>;

const ROLLOUT_STATES = ['running', 'paused', 'stopped', 'cancelled', 'done'] as const;
export const Rollout = z.object({
  id: z.string(),
  /** `stopped`: a failure stopped it (onFailure stop); `paused` finishes the running batch first. */
  state: z.enum(ROLLOUT_STATES),
  options: RolloutOptions,
  agents: z.array(RolloutAgent),
  /** Agents past their last step (done, restart-yourself, failed, skipped). */
  finished: z.int(),
  total: z.int(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** From the pace so far; null before the first agent finishes. */
  remainingMs: z.number().nullable(),
  /**
   * "Rolling update: 4 of 12" while it runs, as the tray's one line says it; once it ended, its
   * outcomes: "Rolling update done: 10 updated, 2 failed".
   */
  line: z.string(),
  /** A person put the ended rollout away: the windows no longer show it. */
  dismissed: z.boolean(),
});
export type Rollout = z.output<typeof Rollout>;

/** One line of `burrow rollout --json`, and of the activity record. */
export const RolloutEvent = z.object({
  event: z.enum(['updated', 'restarting', 'online', 'failed', 'skipped', 'done']),
  agent: z.string(),
  profile: z.string(),
  /** The agent's and its profile's ids, for links: the record's, the window's. */
  agentId: z.string(),
  profileId: z.string(),
  version: z.string().nullable(),
  at: z.string(),
  reason: z.string().optional(),
});
export type RolloutEvent = z.output<typeof RolloutEvent>;

/** The newest version of each major among `agents`: what "outdated" compares with. */
export function newestByMajor(agents: readonly Pick<Agent, 'session'>[]): Map<string, string> {
  const newest = new Map<string, string>();
  for (const { session } of agents) {
    const version = session.agent_version;
    if (!Version.safeParse(version).success) continue;
    const major = version.split('.')[0] ?? '';
    const known = newest.get(major);
    if (known === undefined || compareVersions(version, known) > 0) newest.set(major, version);
  }
  return newest;
}
