import { agentId, type AgentState, type AgentsSnapshot } from '../../shared/app/agents.ts';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { agentKey, type MonitorEvent, type ProfileSnapshot } from '../../shared/app/monitor.ts';
import type { ActionEvent } from '../../shared/app/sessions/actions.ts';
import { AppError } from '../errors.ts';
import {
  become,
  COMMANDING,
  createdEntry,
  failed,
  isGone,
  moved,
  noteOf,
  present,
  succeeded,
  type Entry,
} from './entry.ts';
import { mark, trim } from './history.ts';

/** A gone agent leaves the list after a week, unless dismissed before. */
export const AGENT_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;
/** Gone agents kept per profile; the longest gone leave first. */
export const MAX_GONE_AGENTS = 200;
/**
 * An agent the monitor does not track (it started quietly after the agent went: a restart of
 * Burrow, a resume) is offline after two polls without it and this long: agents reconnecting
 * after an outage of the API while Burrow was away have the monitor's grace too.
 */
export const UNTRACKED_GRACE_MS = 30_000;

/** The order of the list: what needs a look first. */
const RANK: Partial<Record<AgentState, number>> = { lost: 0, offline: 1 };

/**
 * The agents of every profile, folded from the monitor's events and snapshots and from the
 * session actions' progress. Pure state: the service feeds it, keeps it on disk and tells of
 * its changes. Every `apply…` answers whether anything a person sees changed ("last seen" of a
 * connected agent does not count: it moves with every poll).
 */
export class AgentRegistry {
  private readonly profiles = new Map<string, Map<string, Entry>>();
  /** The successful polls each profile's snapshot had when last applied. */
  private readonly polls = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  load(entries: readonly Entry[]): void {
    for (const entry of entries) {
      const { agent } = entry;
      // The command's run did not survive Burrow: the next poll says where the agent is.
      if (COMMANDING.includes(agent.state)) agent.state = 'online';
      agent.step = null;
      this.agentsOf(agent.profileId).set(agent.id, { ...entry, settled: true });
    }
  }

  entries(): Entry[] {
    return [...this.profiles.values()].flatMap((agents) => [...agents.values()]);
  }

  snapshot(profileId?: string): AgentsSnapshot {
    const now = this.now();
    const ids = profileId === undefined ? [...this.profiles.keys()] : [profileId];
    return {
      profiles: ids.map((id) => ({
        profileId: id,
        agents: [...(this.profiles.get(id)?.values() ?? [])]
          .map(({ agent }) => ({ ...agent, history: trim(agent.history, now) }))
          .sort(
            (a, b) =>
              (RANK[a.state] ?? 2) - (RANK[b.state] ?? 2) ||
              a.name.localeCompare(b.name) ||
              a.id.localeCompare(b.id),
          ),
      })),
    };
  }

  /** Only these profiles' agents are kept: a removed profile's go with it. */
  keepProfiles(profileIds: readonly string[]): boolean {
    const wanted = new Set(profileIds);
    let changed = false;
    for (const id of [...this.profiles.keys()])
      if (!wanted.has(id)) {
        this.profiles.delete(id);
        this.polls.delete(id);
        changed = true;
      }
    return changed;
  }

  dismiss(profileId: string, id: string): void {
    const entry = this.profiles.get(profileId)?.get(id);
    if (!entry) throw new AppError('AGENTS_NO_AGENT', `No agent ${id} in this profile`, 'agentId');
    if (!isGone(entry.agent.state))
      throw new AppError(
        'AGENTS_NOT_GONE',
        'Only an offline or stopped agent can be dismissed',
        'agentId',
      );
    this.profiles.get(profileId)?.delete(id);
  }

  /** Gone a week, or beyond the gone agents a profile keeps: dropped. */
  expire(): boolean {
    const cutoff = this.now() - AGENT_EXPIRY_MS;
    let changed = false;
    for (const agents of this.profiles.values()) {
      const gone = [...agents.values()]
        .filter((e) => isGone(e.agent.state))
        .sort((a, b) => b.agent.since - a.agent.since);
      for (const [index, { agent }] of gone.entries())
        if (index >= MAX_GONE_AGENTS || agent.since <= cutoff) {
          agents.delete(agent.id);
          changed = true;
        }
    }
    return changed;
  }

  applyEvent(event: MonitorEvent): boolean {
    switch (event.kind) {
      case 'offline':
        return event.sessions
          .map((session) => this.gone(event.profileId, session, 'offline', event.at))
          .includes(true);
      case 'stopped':
        return this.gone(event.profileId, event.session, 'stopped', event.at);
      case 'restarted':
      case 'updated': {
        const entry = this.entryFor(event.profileId, event.session, event.at);
        if (entry.agent.session.id === event.session.id && entry.agent.state === 'online')
          return false;
        const [before, after] = [event.previous.agent_version, event.session.agent_version];
        const detail =
          event.kind === 'updated' ? `${before} → ${after}` : `new session ${event.session.id}`;
        moved(entry, event.session, event.at);
        entry.agent.note = noteOf(event.kind, detail);
        entry.agent.history = mark(entry.agent.history, event.kind, event.at, detail);
        return true;
      }
      default:
        // online: the snapshot after it lists the session; the API's health is not an agent's.
        return false;
    }
  }

  /** A new successful poll of a profile (snapshots of failed polls and pauses change nothing). */
  applySnapshot(profile: ProfileSnapshot): boolean {
    const { profileId, lastPollAt: at } = profile;
    if (at === null || this.polls.get(profileId) === profile.polls) return false;
    this.polls.set(profileId, profile.polls);
    const agents = this.agentsOf(profileId);
    let changed = false;

    const listed = new Map<string, TunnelSession>();
    for (const session of profile.sessions) {
      const id = agentId(profileId, agentKey(session));
      // Two sessions with one agent key: the one the agent already has stands for it.
      if (!listed.has(id) || agents.get(id)?.agent.session.id === session.id)
        listed.set(id, session);
    }
    for (const [id, session] of listed) {
      const entry = agents.get(id);
      if (entry) changed = present(entry, session, at) || changed;
      else {
        agents.set(id, createdEntry(profileId, session, at));
        changed = true;
      }
    }

    const tracked = new Set(listed.keys());
    for (const { session } of profile.missing ?? []) {
      const entry = agents.get(agentId(profileId, agentKey(session)));
      if (!entry || tracked.has(entry.agent.id)) continue;
      tracked.add(entry.agent.id);
      // Its old session, and the agent already on another (an update-and-restart found it).
      if (entry.agent.session.id !== session.id) continue;
      entry.absentPolls = 0;
      entry.absentSince = null;
      if (entry.agent.state === 'online') changed = become(entry, 'lost', at) || changed;
    }

    for (const entry of agents.values()) {
      if (tracked.has(entry.agent.id) || isGone(entry.agent.state)) continue;
      entry.absentPolls += 1;
      entry.absentSince ??= at;
      if (entry.absentPolls >= 2 && at - entry.absentSince >= UNTRACKED_GRACE_MS) {
        changed = become(entry, 'offline', entry.agent.lastSeenAt) || changed;
        entry.agent.history = mark(entry.agent.history, 'offline', at);
      } else if (entry.agent.state === 'online') changed = become(entry, 'lost', at) || changed;
    }
    return changed;
  }

  applyAction(event: ActionEvent): boolean {
    const entry = [...(this.profiles.get(event.profileId)?.values() ?? [])].find(
      (e) => e.agent.session.id === event.sessionId,
    );
    if (!entry) return false;
    const { agent } = entry;
    const stepped = event.action === 'update-and-restart';
    switch (event.phase) {
      case 'sent': {
        const state = ({ restart: 'restarting', stop: 'stopping', update: 'updating' } as const)[
          event.command
        ];
        entry.settled = false;
        become(entry, state, this.now());
        agent.step = stepped
          ? { name: event.command === 'update' ? 'updating' : 'restarting', until: null }
          : null;
        return true;
      }
      case 'waiting':
        agent.step = { name: 'waiting', until: this.now() + event.ms };
        return true;
      case 'finding':
        return false;
      case 'done':
        entry.settled = true;
        agent.step = null;
        if (event.result.ok) succeeded(entry, event.result, this.now());
        else failed(entry, event.result, this.now());
        return true;
    }
  }

  /** The monitor confirmed `session` gone. */
  private gone(profileId: string, session: TunnelSession, state: AgentState, at: number): boolean {
    const entry = this.profiles.get(profileId)?.get(agentId(profileId, agentKey(session)));
    // The agent is on another session already (a restart found before the poll).
    if (!entry || entry.agent.session.id !== session.id || isGone(entry.agent.state)) return false;
    entry.agent.step = null;
    entry.settled = true;
    become(entry, state, at);
    entry.agent.history = mark(
      entry.agent.history,
      state === 'stopped' ? 'stopped' : 'offline',
      at,
    );
    return true;
  }

  private entryFor(profileId: string, session: TunnelSession, at: number): Entry {
    const agents = this.agentsOf(profileId);
    const id = agentId(profileId, agentKey(session));
    let entry = agents.get(id);
    if (!entry) {
      entry = createdEntry(profileId, session, at);
      agents.set(id, entry);
    }
    return entry;
  }

  private agentsOf(profileId: string): Map<string, Entry> {
    let agents = this.profiles.get(profileId);
    if (!agents) {
      agents = new Map();
      this.profiles.set(profileId, agents);
    }
    return agents;
  }
}
