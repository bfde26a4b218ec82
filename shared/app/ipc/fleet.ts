import { z } from 'zod';
import {
  BulkImpact,
  BulkRequest,
  BulkResult,
  Rollout,
  RolloutEvent,
  RolloutImpact,
  RolloutImpactRequest,
  RolloutRequest,
} from '../fleet.ts';

/*
 * The fleet as the windows and the tray see it (shared/app/fleet.ts): a bulk action's impact
 * before it runs and its results after, and the rolling update, which runs in core whatever the
 * windows do (closing one does not stop it).
 */

const RolloutId = z.string().min(1).max(64);

export const fleetCalls = {
  /** What the action would do to these agents, per rule: the confirmation's content. */
  'fleet.impact': { args: z.tuple([BulkRequest]), result: BulkImpact },
  /** Runs the action on every agent the rules allow; each agent's result, and a summary. */
  'fleet.run': { args: z.tuple([BulkRequest]), result: BulkResult },
  /** What a rolling update of these agents would do, per the fleet's rules, before it starts. */
  'rollout.impact': { args: z.tuple([RolloutImpactRequest]), result: RolloutImpact },
  /** Starts a rolling update; refused while another runs. */
  'rollout.start': { args: z.tuple([RolloutRequest]), result: Rollout },
  'rollout.pause': { args: z.tuple([RolloutId]), result: Rollout },
  'rollout.resume': { args: z.tuple([RolloutId]), result: Rollout },
  'rollout.cancel': { args: z.tuple([RolloutId]), result: Rollout },
  /** Puts an ended rollout away (it stays `rollout.state`, marked dismissed); refused while it runs. */
  'rollout.dismiss': { args: z.tuple([RolloutId]), result: Rollout },
  /** The running rollout, or the last one of this run of Burrow; null before any. */
  'rollout.state': { args: z.tuple([]), result: Rollout.nullable() },
} as const;

export const fleetEvents = {
  'rollout.changed': Rollout,
  /** Each step of the running rollout (`burrow rollout` prints them as they come). */
  'rollout.step': RolloutEvent,
} as const;
