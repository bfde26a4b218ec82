import { randomUUID } from 'node:crypto';
import type { ActionSource, NewActivityEntry } from '../../shared/app/activity.ts';
import type { Agent } from '../../shared/app/agents.ts';
import { Emitter } from '../../shared/app/emitter.ts';
import {
  BulkRequest,
  RolloutImpactRequest,
  RolloutRequest,
  type BulkImpact,
  type BulkResult,
  type Rollout,
  type RolloutEvent,
  type RolloutImpact,
} from '../../shared/app/fleet.ts';
import type { ConfirmRequest } from '../../shared/app/ipc/dialogs.ts';
import type { SessionActionRequest } from '../../shared/app/ipc/sessions.ts';
import type { ActionResult } from '../../shared/app/sessions/actions.ts';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { rolloutEntry } from '../activity/actions.ts';
import { AppError } from '../errors.ts';
import type { RunOptions } from '../sessions/service.ts';
import { bulkResult, eachLimited } from './bulk.ts';
import { exclusionOf, impactOf, refKey, rolloutImpactOf } from './impact.ts';
import { RolloutRun } from './rollout.ts';
import { SuccessorWatch } from './successor.ts';

export type FleetServiceOptions = {
  /** Every profile's agents as they are now: the window's registry, or what `burrow` listed. */
  readonly agents: () => readonly Agent[];
  readonly profileName: (profileId: string) => string;
  /** The sessions service's run, at the person's priority. */
  readonly run: (request: SessionActionRequest, options?: RunOptions) => Promise<ActionResult>;
  /** One listing of a profile's sessions: where restarted agents are looked for. */
  readonly listSessions: (profileId: string, signal: AbortSignal) => Promise<TunnelSession[]>;
  /** Agents acted on at once by a bulk action; the client's governor paces their calls. */
  readonly parallel?: number;
  /** How often restarted agents are looked for; default 500 ms. */
  readonly findEveryMs?: number;
  /** The activity record: every rolling update's step lands there, with its source. */
  readonly record?: (entry: NewActivityEntry) => void;
  readonly now?: () => number;
};

/**
 * The fleet, one door for the window, the tray and `burrow`: a bulk action's impact and run, and
 * the rolling update (one at a time; it runs in core, whatever the windows do).
 */
export class FleetService {
  private readonly changes = new Emitter<Rollout>('the rolling update');
  private readonly steps = new Emitter<RolloutEvent>("the rolling update's steps");
  private readonly successors: SuccessorWatch;
  private current: RolloutRun | undefined;

  constructor(private readonly options: FleetServiceOptions) {
    this.successors = new SuccessorWatch(options.listSessions, options.findEveryMs);
  }

  impact(request: BulkRequest): BulkImpact {
    const { action, agents } = BulkRequest.parse(request);
    return impactOf(action, agents, this.agentMap());
  }

  /** Each agent's action is recorded by the sessions service, from `source`. */
  async run(request: BulkRequest, source: ActionSource = 'window'): Promise<BulkResult> {
    const impact = this.impact(request);
    const known = this.agentMap();
    const ran = await eachLimited(impact.included, this.options.parallel ?? 8, async (ref) => {
      const agent = known.get(refKey(ref)) as Agent;
      const result = await this.options.run(
        { profileId: ref.profileId, sessionId: agent.session.id, action: impact.action },
        { grouped: true, source },
      );
      return { agent: ref, name: agent.name, result };
    });
    // The agents as core holds them with the outcomes in: each outcome holds until they move on.
    const after = this.agentMap();
    return bulkResult(
      impact,
      ran.map((one) => ({ ...one, since: after.get(refKey(one.agent))?.since ?? null })),
    );
  }

  /** What a rolling update of these agents would do, before it starts. */
  rolloutImpact(request: RolloutImpactRequest): RolloutImpact {
    const { agents } = RolloutImpactRequest.parse(request);
    return rolloutImpactOf(agents, this.agentMap());
  }

  /** Starts a rolling update; refused while another runs. Its steps are recorded from `source`. */
  startRollout(request: RolloutRequest, source: ActionSource = 'window'): Rollout {
    const { agents: refs, options } = RolloutRequest.parse(request);
    if (this.current?.running)
      throw new AppError(
        'FLEET_ROLLOUT_RUNNING',
        'A rolling update is already running: wait for it, or cancel it first',
      );
    const known = this.agentMap();
    const members = refs.flatMap((ref) => {
      const agent = known.get(refKey(ref));
      if (!agent) return [];
      const skip = exclusionOf(agent, 'update')?.reason;
      return [{ agent, profileName: this.options.profileName(ref.profileId), skip }];
    });
    if (members.length === 0)
      throw new AppError('FLEET_NO_AGENTS', 'None of the selected agents is known now', 'agents');
    const run = new RolloutRun(randomUUID(), members, options, {
      // Its steps are recorded as the rollout's, below, not as actions of their own.
      run: (req, opts) => this.options.run(req, { ...opts, source: null }),
      finder: (profileId) => this.successors.finder(profileId),
      now: this.options.now ?? Date.now,
      onChange: (rollout) => this.changes.emit(rollout),
      onEvent: (event) => {
        this.options.record?.(rolloutEntry(event, source));
        this.steps.emit(event);
      },
    });
    this.current = run;
    return run.snapshot();
  }

  pauseRollout(id: string): Rollout {
    return this.steer(id, (run) => run.pause());
  }

  resumeRollout(id: string): Rollout {
    return this.steer(id, (run) => run.resume());
  }

  cancelRollout(id: string): Rollout {
    return this.steer(id, (run) => run.cancel());
  }

  /** Puts the ended rollout away; refused while it runs. */
  dismissRollout(id: string): Rollout {
    return this.steer(id, (run) => {
      if (run.running)
        throw new AppError(
          'FLEET_ROLLOUT_RUNNING',
          'The rolling update is still running: cancel it, or wait for it to end',
          'id',
        );
      run.dismiss();
    });
  }

  /** The running rollout, or the last one; null before any. */
  rolloutState(): Rollout | null {
    return this.current?.snapshot() ?? null;
  }

  /** Resolves with the rollout as it ended. */
  rolloutEnded(id: string): Promise<Rollout> {
    return this.rollout(id).ended;
  }

  /** What to ask before quitting while quitting would stop a rollout; null when nothing runs. */
  quitQuestion(): ConfirmRequest | null {
    if (!this.current?.running) return null;
    const { line } = this.current.snapshot();
    return {
      title: 'Quit Burrow?',
      message: `A rollout is running (${line}). Quitting cancels it part way: agents not yet updated stay on their version.`,
      confirmLabel: 'Quit and cancel it',
      destructive: true,
    };
  }

  onChange(listener: (rollout: Rollout) => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** Each step of a rolling update, as it happens. */
  onStep(listener: (event: RolloutEvent) => void): () => void {
    return this.steps.subscribe(listener);
  }

  /** Cancels a running rollout and waits for it to stop. */
  async close(): Promise<void> {
    const run = this.current;
    if (!run?.running) return;
    run.cancel();
    await run.ended;
  }

  /** Does `act` to the rolling update `id` (refused unless it is the current one); how it stands after. */
  private steer(id: string, act: (run: RolloutRun) => void): Rollout {
    const run = this.rollout(id);
    act(run);
    return run.snapshot();
  }

  private rollout(id: string): RolloutRun {
    if (this.current?.id !== id)
      throw new AppError('FLEET_ROLLOUT_UNKNOWN', `No rolling update has the id "${id}"`, 'id');
    return this.current;
  }

  private agentMap(): Map<string, Agent> {
    return new Map(
      this.options.agents().map((a) => [refKey({ profileId: a.profileId, agentId: a.id }), a]),
    );
  }
}
