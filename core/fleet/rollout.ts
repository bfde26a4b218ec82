import type { Agent } from '../../shared/app/agents.ts';
import type {
  Rollout,
  RolloutAgent,
  RolloutEvent,
  RolloutOptions,
} from '../../shared/app/fleet.ts';
import type { SessionActionRequest } from '../../shared/app/ipc/sessions.ts';
import type { ActionEvent, ActionResult, ActionStep } from '../../shared/app/sessions/actions.ts';
import type { FindSuccessor } from '../sessions/actions.ts';
import type { RunOptions } from '../sessions/service.ts';
import { FINAL, rolloutLine } from './rollout-line.ts';

export type RolloutDeps = {
  /** The sessions service's run: the 10 s between update and restart is kept there. */
  readonly run: (request: SessionActionRequest, options: RunOptions) => Promise<ActionResult>;
  readonly finder: (profileId: string) => FindSuccessor;
  /** Wall-clock time (epoch ms). */
  readonly now: () => number;
  readonly onChange: (rollout: Rollout) => void;
  readonly onEvent: (event: RolloutEvent) => void;
};

/** An agent as the rollout takes it: left out before any call when `skip` says why. */
export type RolloutMember = {
  readonly agent: Agent;
  readonly profileName: string;
  readonly skip?: string | undefined;
};

const WINDOWS_NOTE = 'Updated; runs on Windows: restart it yourself to run the new version.';

/** How far an agent got when the rollout was cancelled on it: where its step stopped. */
const CANCELLED_AT: Partial<Record<ActionStep, string>> = {
  wait: 'Cancelled once updated: restart it to run the new version',
  restart: 'Cancelled once updated: restart it to run the new version',
  find: 'Cancelled once restarted: it comes back online by itself',
};
const CANCELLED_BEFORE = 'Cancelled before its update';

type Entry = { readonly agent: Agent; view: RolloutAgent };

/**
 * One rolling update: batches one after the other, each agent updated, left its 10 s, restarted
 * and seen online before the next batch starts. Pause lets the running batch finish; cancel
 * stops at once. Every change is told whole (`onChange`), every step as an event (`onEvent`).
 */
export class RolloutRun {
  readonly ended: Promise<Rollout>;
  private state: Rollout['state'] = 'running';
  private readonly entries: Entry[];
  private readonly batches: Entry[][] = [];
  private readonly controller = new AbortController();
  private readonly startedAt: number;
  private endedAt: number | null = null;
  private dismissed = false;
  private release: (() => void) | undefined;

  constructor(
    readonly id: string,
    members: readonly RolloutMember[],
    private readonly options: RolloutOptions,
    private readonly deps: RolloutDeps,
  ) {
    this.startedAt = deps.now();
    const runnable = members.filter((m) => m.skip === undefined);
    const sizes = (i: number) => (i === 0 && options.canary > 0 ? options.canary : options.batch);
    for (let start = 0, b = 0; start < runnable.length; b++) {
      this.batches.push(runnable.slice(start, start + sizes(b)).map((m) => this.entry(m, b)));
      start += sizes(b);
    }
    const batchOf = new Map(this.batches.flat().map((e) => [e.agent, e]));
    this.entries = members.map((m) => batchOf.get(m.agent) ?? this.entry(m, 0, m.skip));
    this.ended = this.go();
  }

  snapshot(): Rollout {
    const agents = this.entries.map((e) => e.view);
    const finished = agents.filter((a) => FINAL.includes(a.state)).length;
    const tried = agents.filter((a) => FINAL.includes(a.state) && a.state !== 'skipped').length;
    const left = agents.filter((a) => !FINAL.includes(a.state) && a.state !== 'cancelled').length;
    const elapsed = (this.endedAt ?? this.deps.now()) - this.startedAt;
    return {
      id: this.id,
      state: this.state,
      options: this.options,
      agents,
      finished,
      total: agents.length,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      remainingMs:
        this.endedAt !== null ? 0 : tried > 0 ? Math.round((elapsed / tried) * left) : null,
      line: rolloutLine(this.state, agents),
      dismissed: this.dismissed,
    };
  }

  /** Read through a getter: a cancel lands while a batch is awaited. */
  private get cancelled(): boolean {
    return this.state === 'cancelled';
  }

  get running(): boolean {
    return this.endedAt === null;
  }

  pause(): void {
    if (this.state === 'running') this.change('paused');
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.change('running');
    this.release?.();
  }

  cancel(): void {
    if (!this.running) return;
    this.change('cancelled');
    this.controller.abort();
    this.release?.();
  }

  /** Puts the ended rollout away; a running one cannot be. */
  dismiss(): void {
    if (this.running || this.dismissed) return;
    this.dismissed = true;
    this.deps.onChange(this.snapshot());
  }

  private entry(member: RolloutMember, batch: number, skip?: string): Entry {
    const { agent, profileName } = member;
    return {
      agent,
      view: {
        agent: { profileId: agent.profileId, agentId: agent.id },
        name: agent.name,
        profileName,
        os: agent.session.os,
        batch,
        state: skip === undefined ? 'pending' : 'skipped',
        until: null,
        versionBefore: agent.session.agent_version,
        versionAfter: null,
        reason: skip ?? null,
      },
    };
  }

  private async go(): Promise<Rollout> {
    for (const entry of this.entries)
      if (entry.view.state === 'skipped') this.tell(entry, 'skipped', null, entry.view.reason);
    for (const batch of this.batches) {
      if (this.state === 'paused') await new Promise<void>((r) => (this.release = r));
      if (this.cancelled) break;
      await Promise.all(batch.map((entry) => this.step(entry)));
      if (this.cancelled) break;
      if (this.options.onFailure === 'stop' && batch.some((e) => e.view.state === 'failed')) {
        this.state = 'stopped';
        break;
      }
    }
    // Ended early: those it never reached say so, as they are (not "waiting their turn").
    for (const entry of this.entries)
      if (entry.view.state === 'pending')
        entry.view = { ...entry.view, state: 'not-started', until: null };
      else if (this.cancelled && !FINAL.includes(entry.view.state))
        entry.view = {
          ...entry.view,
          state: 'cancelled',
          until: null,
          reason: entry.view.reason ?? CANCELLED_BEFORE,
        };
    if (this.state === 'running' || this.state === 'paused') this.state = 'done';
    this.endedAt = this.deps.now();
    const ended = this.snapshot();
    this.deps.onChange(ended);
    return ended;
  }

  private async step(entry: Entry): Promise<void> {
    const { agent } = entry;
    const windows = agent.session.os === 'windows';
    this.set(entry, { state: 'updating' });
    const result = await this.deps.run(
      {
        profileId: agent.profileId,
        sessionId: agent.session.id,
        action: windows ? 'update' : 'update-and-restart',
      },
      {
        signal: this.controller.signal,
        findTimeoutMs: this.options.onlineTimeoutMs,
        findSuccessor: this.deps.finder(agent.profileId),
        onEvent: (event) => this.progress(entry, event),
        grouped: true,
      },
    );
    if (!result.ok) {
      // Where it stopped is what the agent's row says too (updated, not restarted; restarting).
      if (this.cancelled)
        return this.set(entry, {
          state: 'cancelled',
          until: null,
          reason: CANCELLED_AT[result.step] ?? CANCELLED_BEFORE,
        });
      this.set(entry, { state: 'failed', until: null, reason: result.reason });
      return this.tell(entry, 'failed', null, result.reason);
    }
    if (windows) {
      this.tell(entry, 'updated', null);
      this.set(entry, { state: 'restart-yourself', reason: WINDOWS_NOTE });
      return this.tell(entry, 'done', null, WINDOWS_NOTE);
    }
    const after = result.version?.after ?? null;
    this.set(entry, {
      state: 'done',
      until: null,
      versionAfter: after,
      reason: result.note ?? null,
    });
    this.tell(entry, 'online', after);
    this.tell(entry, 'done', after, result.note);
  }

  /** The sessions service's progress, as this agent's state. */
  private progress(entry: Entry, event: ActionEvent): void {
    const now = this.deps.now();
    if (event.phase === 'waiting') {
      this.set(entry, { state: 'waiting', until: now + event.ms });
      this.tell(entry, 'updated', null);
    } else if (event.phase === 'sent' && event.command === 'restart') {
      this.set(entry, { state: 'restarting', until: null });
      this.tell(entry, 'restarting', null);
    } else if (event.phase === 'finding') {
      this.set(entry, { state: 'coming-online', until: now + this.options.onlineTimeoutMs });
    }
  }

  private set(entry: Entry, patch: Partial<RolloutAgent>): void {
    entry.view = { ...entry.view, ...patch };
    this.deps.onChange(this.snapshot());
  }

  private change(state: Rollout['state']): void {
    this.state = state;
    this.deps.onChange(this.snapshot());
  }

  private tell(
    entry: Entry,
    event: RolloutEvent['event'],
    version: string | null,
    reason?: string | null,
  ): void {
    this.deps.onEvent({
      event,
      agent: entry.view.name,
      profile: entry.view.profileName,
      agentId: entry.view.agent.agentId,
      profileId: entry.view.agent.profileId,
      version: version ?? entry.view.versionBefore,
      at: new Date(this.deps.now()).toISOString(),
      ...(reason !== undefined && reason !== null && { reason }),
    });
  }
}
