import { agentId } from '../../shared/app/agents.ts';
import type { TunnelSession } from '../../shared/api/kinds/tunnel-sessions.ts';
import { clockTime } from '../../shared/app/clock.ts';
import { agentDisplayName, agentKey, agentMachine, agentName } from '../../shared/app/monitor.ts';
import { availability } from '../../shared/app/sessions/rules.ts';
import type {
  Notification,
  NotificationAction,
  NotificationTarget,
  NoticeKind,
  NotifyInput,
} from '../../shared/app/notifications.ts';

/*
 * What each event says, in words: its title, body, target and actions. The policy (policy.ts)
 * then decides what of it is shown.
 */

/** One thing that could be said, before the switches, mutes, throttle and grouping. */
export type Item = {
  readonly kind: NoticeKind;
  /** What the throttle counts by: an agent, a profile's API, a certificate. */
  readonly subject: string;
  readonly agent?: NonNullable<Notification['agent']>;
  /** Session kinds group per profile; others never group. */
  readonly group?: { readonly profileId: string; readonly name: string; readonly at: number };
  readonly title: string;
  readonly body: string;
  /** The activity record's words, where they differ (Notification's `record`). */
  readonly record?: Notification['record'];
  readonly target: NotificationTarget;
  readonly actions: NotificationAction[];
};

/** How an event speaks of its profile: by name, only when there is more than one to tell apart. */
export type Speaker = (profileId: string, text: string) => string;

/**
 * An agent's event: its name and what happened as the title, when and where as the body. `when`
 * words the moment at its clock time, or without one for the record.
 */
function sessionItem(
  kind: 'offline' | 'restarted' | 'updated' | 'backOnline' | 'behindVersion',
  event: { readonly profileId: string; readonly at: number },
  session: TunnelSession,
  what: string,
  when: (clock?: string) => string,
  now: number,
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
    body: `${when(clockTime(at, now))}.${named ? ` ${machine}` : ''}`,
    record: { title: `${name} ${what}`, detail: `${when()}.${named ? ` ${machine}` : ''}` },
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

export function itemsOf(
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
          (clock) => (clock ? `Gone at ${clock}` : 'Gone'),
          now,
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
          (clock) => (clock ? `Back at ${clock}` : 'Back'),
          now,
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
          (clock) =>
            `Another agent of the account runs ${event.newest}${clock ? ` since ${clock}` : ''}`,
          now,
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
          (clock) =>
            `Back${clock ? ` at ${clock}` : ''} with a new session, running ${event.session.agent_version}`,
          now,
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
          (clock) => `Back${clock ? ` at ${clock}` : ''}, was ${event.previous.agent_version}`,
          now,
          say,
        ),
      ];
    case 'unreachable':
    case 'unauthorized':
    case 'recovered': {
      const name = profileName(event.profileId);
      const [title, body] =
        event.kind === 'unreachable'
          ? ['API unreachable', `${event.reason}. Agents are not reported offline meanwhile.`]
          : event.kind === 'unauthorized'
            ? ['API key refused', `${event.reason}. Check the profile's API key.`]
            : ['API reachable again', 'Sessions are monitored again.'];
      return [
        {
          kind: 'apiHealth',
          subject: `api:${event.profileId}:${event.kind}`,
          // Named even alone: an API's health is the profile's, not an agent's.
          title: `${name}: ${title}`,
          body,
          record: { title, detail: body },
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
