import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import type { AlertRules } from '../../shared/app/ipc/settings.ts';
import { newestByMajor } from '../../shared/app/fleet.ts';
import { compareVersions } from '../../shared/app/versions.ts';
import { agentKey } from '../../shared/app/monitor.ts';
import type { Notification, NotifyInput } from '../../shared/app/notifications.ts';
import { GROUP_ABOVE } from './policy.ts';

/*
 * The alert rules before the notification policy, pure over a clock the caller passes: which
 * events are told now, which wait (an agent offline for less than the rule's minutes is not told
 * at all if it comes back), what an agent's return or a newer version in the account adds.
 */

const MINUTE = 60_000;

/** An agent gone, waiting out its profile's "offline for longer than". */
export type HeldOffline = {
  readonly profileId: string;
  readonly key: string;
  readonly session: TunnelSession;
  /** When it was found gone (the event's time, for the words). */
  readonly at: number;
  /** Epoch ms on the rules' clock: told then, unless it came back. */
  readonly due: number;
};

/** What the rules remember between two events. */
export type RulesState = {
  readonly held: readonly HeldOffline[];
  /** Agents whose offline was told, by agentKey: their return is told (back online). */
  readonly toldOffline: readonly string[];
};

export const INITIAL_RULES_STATE: RulesState = { held: [], toldOffline: [] };

export type Admitted = {
  /** Events for the policy now. */
  readonly now: NotifyInput[];
  readonly state: RulesState;
};

function arrived(event: NotifyInput): TunnelSession | undefined {
  return event.kind === 'online' || event.kind === 'restarted' || event.kind === 'updated'
    ? event.session
    : undefined;
}

/**
 * An event under its profile's rules at `now`: an offline waits its minutes; an agent listed
 * again drops its wait (nothing was told, so nothing more is) or, when its offline was told and
 * the rule is on, is told back online.
 */
export function admit(
  event: NotifyInput,
  rules: AlertRules,
  state: RulesState,
  now: number,
): Admitted {
  if (event.kind === 'offline' && rules.offlineAfterMinutes > 0) {
    const due = now + rules.offlineAfterMinutes * MINUTE;
    const held = event.sessions.map((session) => ({
      profileId: event.profileId,
      key: agentKey(session),
      session,
      at: event.at,
      due,
    }));
    return { now: [], state: { ...state, held: [...state.held, ...held] } };
  }
  if (event.kind === 'offline') {
    const told = event.sessions.map(agentKey);
    return { now: [event], state: { ...state, toldOffline: [...state.toldOffline, ...told] } };
  }
  const session = arrived(event);
  if (session === undefined) return { now: [event], state };
  const key = agentKey(session);
  const held = state.held.filter((h) => h.key !== key);
  const wasTold = state.toldOffline.includes(key);
  const toldOffline = state.toldOffline.filter((k) => k !== key);
  const back: NotifyInput[] =
    wasTold && rules.backOnline && event.kind === 'online'
      ? [{ kind: 'back-online', profileId: event.profileId, at: event.at, session }]
      : [];
  return { now: [event, ...back], state: { held, toldOffline } };
}

/** The held offlines whose time has come, as one offline event per profile. */
export function releaseDue(state: RulesState, now: number): Admitted {
  const due = state.held.filter((h) => h.due <= now);
  if (due.length === 0) return { now: [], state };
  const byProfile = new Map<string, HeldOffline[]>();
  for (const h of due) byProfile.set(h.profileId, [...(byProfile.get(h.profileId) ?? []), h]);
  const events: NotifyInput[] = [...byProfile].map(([profileId, list]) => ({
    kind: 'offline',
    profileId,
    at: Math.min(...list.map((h) => h.at)),
    sessions: list.map((h) => h.session),
  }));
  return {
    now: events,
    state: {
      held: state.held.filter((h) => h.due > now),
      toldOffline: [...state.toldOffline, ...due.map((h) => h.key)],
    },
  };
}

/** When the next held offline is due, if any. */
export function nextDue(state: RulesState): number | undefined {
  return state.held.length === 0 ? undefined : Math.min(...state.held.map((h) => h.due));
}

/**
 * Agents behind the newest version of their major among `sessions`, for those majors whose
 * newest moved up since `known` (a profile's first listing only sets what is known: an account
 * that already had old agents is not told of them at every start).
 */
export function behindVersion(
  profileId: string,
  sessions: readonly TunnelSession[],
  known: ReadonlyMap<string, string> | undefined,
  at: number,
): { readonly events: NotifyInput[]; readonly newest: Map<string, string> } {
  const newest = newestByMajor(sessions.map((session) => ({ session })));
  const events: NotifyInput[] = [];
  if (known === undefined) return { events, newest };
  for (const [major, version] of newest) {
    const before = known.get(major);
    if (before === undefined || compareVersions(version, before) <= 0) continue;
    const behind = sessions.filter(
      (s) =>
        s.agent_version.split('.')[0] === major && compareVersions(s.agent_version, version) < 0,
    );
    if (behind.length > 0)
      events.push({ kind: 'behind-version', profileId, at, newest: version, sessions: behind });
  }
  // A major no agent runs any more keeps its newest: an agent of it coming back is not "new".
  return { events, newest: new Map([...(known ?? []), ...newest]) };
}

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/**
 * When the quiet hours holding `now` end (epoch ms, local time), or undefined outside them. A
 * window whose end is before its start runs past midnight (22:00–07:00).
 */
export function quietUntil(
  window: { readonly from: string; readonly to: string } | null,
  now: number,
): number | undefined {
  if (window === null) return undefined;
  const date = new Date(now);
  const minute = date.getHours() * 60 + date.getMinutes();
  const [from, to] = [minutesOf(window.from), minutesOf(window.to)];
  const inside = from < to ? minute >= from && minute < to : minute >= from || minute < to;
  if (!inside) return undefined;
  const end = new Date(now);
  end.setHours(Math.floor(to / 60), to % 60, 0, 0);
  if (end.getTime() <= now) end.setDate(end.getDate() + 1);
  return end.getTime();
}

/**
 * The one notice told when a profile's quiet hours end, for what they held: the first titles and
 * how many more, opening the profile's sessions.
 */
export function quietSummary(
  profileId: string,
  held: readonly Notification[],
  now: number,
  profileName?: string,
): Notification {
  const first = held.slice(0, GROUP_ABOVE);
  const more = held.length > GROUP_ABOVE ? `; and ${held.length - GROUP_ABOVE} more` : '';
  const count = `${held.length} notice${held.length === 1 ? '' : 's'} during quiet hours`;
  return {
    id: `quietSummary:${profileId}:${now}`,
    kind: 'quietSummary',
    title: `${profileName === undefined ? '' : `${profileName}: `}${count}`,
    body: `${first.map((n) => n.title).join('; ')}${more}.`,
    target: { type: 'sessions', profileId },
    actions: ['open'],
    record: {
      title: count,
      detail: `${first.map((n) => n.record?.title ?? n.title).join('; ')}${more}.`,
    },
  };
}
