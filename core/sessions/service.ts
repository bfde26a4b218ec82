import type { ActionSource, NewActivityEntry } from '../../shared/app/activity.ts';
import { Emitter } from '../../shared/app/emitter.ts';
import type { SessionActionRequest } from '../../shared/app/ipc/sessions.ts';
import { MAX_MUTED_AGENTS, type Settings } from '../../shared/app/ipc/settings.ts';
import type { ActionEvent, ActionResult } from '../../shared/app/sessions/actions.ts';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import type { ApiClient } from '../api/client.ts';
import { systemClock, type Clock, type Timer } from '../../shared/node/clock.ts';
import { actionEntry } from '../activity/actions.ts';
import { AppError } from '../errors.ts';
import type { WatchedProfiles } from '../monitor/watched.ts';
import { createSessionActions, type FindSuccessor } from './actions.ts';

/** What one caller adds to a run: the fleet's rolling update steers its agents with these. */
export type RunOptions = {
  readonly signal?: AbortSignal;
  /** This run's progress only (`onAction` hears every run's). */
  readonly onEvent?: (event: ActionEvent) => void;
  /** How long to wait for a restarted agent's new session. */
  readonly findTimeoutMs?: number;
  readonly findSuccessor?: FindSuccessor;
  /** One of many (a bulk action, a rolling update) that says its own outcome: no toast each. */
  readonly grouped?: boolean;
  /**
   * Which of Burrow's doors asked, as the activity record names it; null: the caller records
   * the outcome in its own words (a rolling update's steps). Default the window.
   */
  readonly source?: ActionSource | null;
};

export type SessionsServiceOptions = {
  /** The sessions the monitor lists, and where it hears of our commands. */
  readonly watched: Pick<WatchedProfiles, 'findSession' | 'expect' | 'pollNow'>;
  readonly client: (profileId: string) => Promise<{ client: ApiClient }>;
  /** Only the muted agents: the command line, which mutes nobody, keeps none. */
  readonly settings: {
    get(): Pick<Settings, 'mutedAgents'>;
    update(patch: { mutedAgents: string[] }): Pick<Settings, 'mutedAgents'>;
  };
  readonly clock?: Clock;
  /** The activity record: every run lands there, with its source, whoever asked. */
  readonly record?: (entry: NewActivityEntry) => void;
  /** Wall-clock time for the record's entries. Default Date.now. */
  readonly now?: () => number;
  /** An update-and-restart's wait between the two (createSessionActions's `settleMs`). */
  readonly settleMs?: number | undefined;
};

/**
 * How long after the service accepted a command the sessions are looked at again: an agent
 * answers a stop before it leaves, so a poll at the 204 would still list it.
 */
const POLL_AFTER_COMMAND_MS = 1_000;

/**
 * What a person does to sessions: the four actions on a session the monitor lists (the rules
 * checked before any call, progress told as it goes), and muting an agent's notifications.
 */
export class SessionsService {
  private readonly options: SessionsServiceOptions;
  private readonly running = new Set<AbortController>();
  private readonly polls = new Set<Timer>();
  private readonly progress = new Emitter<ActionEvent>('the session actions');

  constructor(options: SessionsServiceOptions) {
    this.options = options;
  }

  /**
   * Runs an action on a session the monitor lists; the rules are checked before any call. Its
   * outcome is recorded here, so that no door (window, tray, notification, bulk, command line)
   * can run one unrecorded.
   */
  async run(request: SessionActionRequest, options: RunOptions = {}): Promise<ActionResult> {
    const session = this.options.watched.findSession(request.profileId, request.sessionId);
    const result = await this.runOn(session, request, options);
    const source = options.source === undefined ? 'window' : options.source;
    if (source !== null)
      this.options.record?.(actionEntry(source, result, session, (this.options.now ?? Date.now)()));
    return result;
  }

  private async runOn(
    session: TunnelSession | undefined,
    { profileId, sessionId, action }: SessionActionRequest,
    options: RunOptions,
  ): Promise<ActionResult> {
    if (!session)
      return {
        ok: false,
        action,
        profileId,
        sessionId,
        step: 'check',
        reason: 'The session has ended: the agent is no longer online.',
        errorCode: null,
        operationId: null,
      };
    const { client } = await this.options.client(profileId);
    const controller = new AbortController();
    const abort = () => controller.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.signal?.aborted === true) controller.abort();
    this.running.add(controller);
    try {
      return await createSessionActions({
        client,
        profileId,
        clock: this.options.clock,
        ...(this.options.settleMs !== undefined && { settleMs: this.options.settleMs }),
        monitor: this.options.watched,
        onEvent: (event) => {
          options.onEvent?.(event);
          this.progress.emit(
            options.grouped && event.phase === 'done' ? { ...event, grouped: true } : event,
          );
        },
        ...(options.findTimeoutMs !== undefined && { findTimeoutMs: options.findTimeoutMs }),
        ...(options.findSuccessor && { findSuccessor: options.findSuccessor }),
        // The next poll is up to an interval away: what the command did shows in a second.
        onAccepted: () => this.pollSoon(profileId),
      }).run(action, session, controller.signal);
    } finally {
      options.signal?.removeEventListener('abort', abort);
      this.running.delete(controller);
    }
  }

  /** Mutes or unmutes an agent by its key; answers the muted keys. */
  mute(agentKey: string, muted: boolean): string[] {
    const current = this.options.settings.get().mutedAgents.filter((k) => k !== agentKey);
    if (muted && current.length >= MAX_MUTED_AGENTS)
      throw new AppError(
        'SESSIONS_MUTE_LIMIT',
        `At most ${MAX_MUTED_AGENTS.toLocaleString('en')} agents can be muted: unmute one first`,
        'agentKey',
      );
    const mutedAgents = muted ? [...current, agentKey] : current;
    return this.options.settings.update({ mutedAgents }).mutedAgents;
  }

  onAction(listener: (event: ActionEvent) => void): () => void {
    return this.progress.subscribe(listener);
  }

  close(): void {
    for (const controller of this.running) controller.abort();
    for (const timer of this.polls) timer.cancel();
    this.polls.clear();
  }

  private pollSoon(profileId: string): void {
    const timer = (this.options.clock ?? systemClock).setTimer(() => {
      this.polls.delete(timer);
      void this.options.watched.pollNow(profileId).catch(() => undefined);
    }, POLL_AFTER_COMMAND_MS);
    this.polls.add(timer);
  }
}
