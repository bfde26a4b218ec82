import { agentId } from '../../shared/app/agents.ts';
import type { TunnelSession } from '../../shared/api/tunnel-sessions.ts';
import { clockTime } from '../../shared/app/clock.ts';
import { agentDisplayName, agentKey, agentMachine, agentName } from '../../shared/app/monitor.ts';
import { availability } from '../../shared/app/sessions/rules.ts';
import type {
  Notification,
  NotificationAction,
  NotificationTarget,
  NoticeKind,
  NotifyInput,
  NotifyKind,
  NotifyPrefs,
  NotifyState,
} from '../../shared/app/notifications.ts';

/** At most one notification per agent (or profile, or certificate) in this long. */
export const NOTIFY_THROTTLE_MS = 60_000;
/** More agents than this of one kind in one batch are told as one notification. */
export const GROUP_ABOVE = 3;

export type NotifyArgs = {
  readonly events: readonly NotifyInput[];
  readonly prefs: NotifyPrefs;
  readonly state: NotifyState;
  /** Epoch ms. */
  readonly now: number;
  /** Profile names for the words; the id is shown where a name is missing. */
  readonly profileNames?: Readonly<Record<string, string>>;
};

export type NotifyResult = { readonly notifications: Notification[]; readonly state: NotifyState };

/** One thing that could be said, before the switches, mutes, throttle and grouping. */
type Item = {
  readonly kind: NoticeKind;
  /** What the throttle counts by: an agent, a profile's API, a certificate. */
  readonly subject: string;
  readonly agent?: NonNullable<Notification['agent']>;
  /** Session kinds group per profile; others never group. */
  readonly group?: { readonly profileId: string; readonly name: string; readonly at: number };
  readonly title: string;
  readonly body: string;
  readonly target: NotificationTarget;
  readonly actions: NotificationAction[];
};

/** The switch a rule's notice goes by: back online with offline; behind a version with updated. */
const SWITCH_OF: Record<NoticeKind, NotifyKind | undefined> = {
  offline: 'offline',
  restarted: 'restarted',
  updated: 'updated',
  apiHealth: 'apiHealth',
  certificateExpiry: 'certificateExpiry',
  drift: 'drift',
  backOnline: 'offline',
  behindVersion: 'updated',
  quietSummary: undefined,
};

const GROUP_TITLES: Partial<Record<NoticeKind, (n: number) => string>> = {
  offline: (n) => `${n} agents went offline`,
  backOnline: (n) => `${n} agents back online`,
  behindVersion: (n) => `${n} agents behind the newest version`,
  restarted: (n) => `${n} agents restarted`,
  updated: (n) => `${n} agents updated`,
};

/** How an event speaks of its profile: by name, only when there is more than one to tell apart. */
type Speaker = (profileId: string, text: string) => string;

/** An agent's event: its name and what happened as the title, when and where as the body. */
function sessionItem(
  kind: 'offline' | 'restarted' | 'updated' | 'backOnline' | 'behindVersion',
  event: { readonly profileId: string; readonly at: number },
  session: TunnelSession,
  what: string,
  when: string,
  say: Speaker,
): Item {
  const { profileId, at } = event;
  const named = agentName(session);
  const machine = agentMachine(session);
  const name = agentDisplayName(session);
  const key = agentKey(session);
  // An agent gone has no session to restart: Open and Mute only.
  const restart = kind !== 'offline' && availability(session, 'restart').allowed;
  // A version behind is per version: the agent's next update is told again when it falls behind.
  // A return answers its told offline, however soon: the offline's minute must not swallow it.
  const subject =
    kind === 'behindVersion'
      ? `behind:${key}`
      : kind === 'backOnline'
        ? `back:${key}`
        : `agent:${key}`;
  return {
    kind,
    subject,
    agent: { profileId, sessionId: session.id, agentKey: key },
    group: { profileId, name, at },
    title: say(profileId, `${name} ${what}`),
    body: `${when}.${named ? ` ${machine}` : ''}`,
    target: { type: 'agent', profileId, agentId: agentId(profileId, key) },
    actions: restart ? ['open', 'restart', 'mute'] : ['open', 'mute'],
  };
}

function relativeDays(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  if (ms <= 0) return 'has expired';
  if (days === 0) return 'expires within a day';
  return `expires in ${days} day${days === 1 ? '' : 's'}`;
}

function itemsOf(
  event: NotifyInput,
  now: number,
  profileName: (id: string) => string,
  say: Speaker,
): Item[] {
  switch (event.kind) {
    case 'online':
    case 'stopped':
      // An agent appearing is what the Sessions screen shows; a stop was the person's own act.
      return [];
    case 'offline':
      return event.sessions.map((s) =>
        sessionItem(
          'offline',
          event,
          s,
          'went offline',
          `Gone at ${clockTime(event.at, now)}`,
          say,
        ),
      );
    case 'back-online':
      return [
        sessionItem(
          'backOnline',
          event,
          event.session,
          'is back online',
          `Back at ${clockTime(event.at, now)}`,
          say,
        ),
      ];
    case 'behind-version':
      return event.sessions.map((s) =>
        sessionItem(
          'behindVersion',
          event,
          s,
          `runs ${s.agent_version}, behind ${event.newest}`,
          `Another agent of the account runs ${event.newest} since ${clockTime(event.at, now)}`,
          say,
        ),
      );
    case 'restarted':
      return [
        sessionItem(
          'restarted',
          event,
          event.session,
          'restarted',
          `Back at ${clockTime(event.at, now)} with a new session, running ${event.session.agent_version}`,
          say,
        ),
      ];
    case 'updated':
      return [
        sessionItem(
          'updated',
          event,
          event.session,
          `updated to ${event.session.agent_version}`,
          `Back at ${clockTime(event.at, now)}, was ${event.previous.agent_version}`,
          say,
        ),
      ];
    case 'unreachable':
    case 'unauthorized':
    case 'recovered': {
      const name = profileName(event.profileId);
      const [title, body] =
        event.kind === 'unreachable'
          ? [
              `${name}: API unreachable`,
              `${event.reason}. Agents are not reported offline meanwhile.`,
            ]
          : event.kind === 'unauthorized'
            ? [`${name}: API key refused`, `${event.reason}. Check the profile's API key.`]
            : [`${name}: API reachable again`, 'Sessions are monitored again.'];
      return [
        {
          kind: 'apiHealth',
          subject: `api:${event.profileId}:${event.kind}`,
          title,
          body,
          target: { type: 'profile', profileId: event.profileId },
          actions: ['open'],
        },
      ];
    }
    case 'drift-found':
      return [
        {
          kind: 'drift',
          // Per drift: a new one is told even within the minute of the last.
          subject: `drift:${event.profileId}:${event.driftId}`,
          title: `${profileName(event.profileId)} changed outside Burrow: ${event.summary}`,
          body: 'Open Drift to see what changed, accept it or put it back.',
          target: { type: 'drift', profileId: event.profileId },
          actions: ['open'],
        },
      ];
    case 'certificate-expiring':
      return [
        {
          kind: 'certificateExpiry',
          subject: `cert:${event.certId}`,
          title: 'Certificate expiring',
          body: `${event.name} ${relativeDays(Date.parse(event.expiresAt) - now)}.`,
          target: { type: 'certificate', certId: event.certId },
          actions: ['open'],
        },
      ];
  }
}

/**
 * What to show for a batch of events: nothing during do-not-disturb, nothing of a kind switched
 * off or of a muted agent, at most one notification per agent (profile, certificate) a minute,
 * and more than three agents of one kind in one profile as one notification. Pure: the caller
 * keeps the returned state for the next call.
 */
export function notify(args: NotifyArgs): NotifyResult {
  const { prefs, now } = args;
  const lastShown = Object.fromEntries(
    Object.entries(args.state.lastShown).filter(([, at]) => now - at < NOTIFY_THROTTLE_MS),
  );
  const dnd = prefs.doNotDisturbUntil !== null && now < prefs.doNotDisturbUntil;
  if (dnd) return { notifications: [], state: { lastShown } };

  const muted = new Set(prefs.mutedAgents);
  const profileName = (id: string) => args.profileNames?.[id] ?? id;
  const several = Object.keys(args.profileNames ?? {}).length > 1;
  const say: Speaker = (id, text) => (several ? `${profileName(id)}: ${text}` : text);
  const kept: Item[] = [];
  for (const event of args.events)
    for (const item of itemsOf(event, now, profileName, say)) {
      const switchOf = SWITCH_OF[item.kind];
      if (switchOf !== undefined && !prefs.kinds[switchOf]) continue;
      if (item.agent !== undefined && muted.has(item.agent.agentKey)) continue;
      if (lastShown[item.subject] !== undefined) continue;
      lastShown[item.subject] = now;
      kept.push(item);
    }

  const groups = new Map<string, Item[]>();
  for (const item of kept) {
    const key = item.group ? `${item.kind}\n${item.group.profileId}` : item.subject;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const notifications: Notification[] = [];
  for (const items of groups.values()) {
    const [first] = items;
    if (first === undefined) continue;
    const group = first.group;
    const title = GROUP_TITLES[first.kind];
    if (items.length <= GROUP_ABOVE || group === undefined || title === undefined) {
      for (const { kind, subject, title: t, body, target, actions, agent } of items)
        notifications.push({
          id: `${kind}:${subject}:${now}`,
          kind,
          tone: toneOf(kind, subject),
          title: t,
          body,
          target,
          actions,
          ...(agent && { agent }),
        });
      continue;
    }
    const named = items.slice(0, GROUP_ABOVE).map((i) => i.group?.name ?? '');
    const rest = items.length - named.length;
    notifications.push({
      id: `${first.kind}:group:${group.profileId}:${now}`,
      kind: first.kind,
      tone: toneOf(first.kind, first.subject),
      title: say(group.profileId, title(items.length)),
      body: `${named.join(', ')} and ${rest} more, at ${clockTime(group.at, now)}.`,
      target: { type: 'sessions', profileId: group.profileId },
      actions: ['open'],
    });
  }
  return { notifications, state: { lastShown } };
}

/** An agent or an API gone is a problem; one back is good news; the rest is information. */
function toneOf(kind: NoticeKind, subject: string): NonNullable<Notification['tone']> {
  if (kind === 'apiHealth') return subject.endsWith(':recovered') ? 'good' : 'problem';
  if (kind === 'offline' || kind === 'certificateExpiry') return 'problem';
  return kind === 'backOnline' ? 'good' : 'info';
}

/** "Pause notifications": for an hour, or until 08:00 tomorrow, local time; epoch ms. */
export function pauseUntil(choice: 'hour' | 'tomorrow', now: number): number {
  if (choice === 'hour') return now + 3_600_000;
  const morning = new Date(now);
  morning.setDate(morning.getDate() + 1);
  morning.setHours(8, 0, 0, 0);
  return morning.getTime();
}
