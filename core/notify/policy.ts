import { clockTime } from '../../shared/app/clock.ts';
import type {
  Notification,
  NoticeKind,
  NotifyInput,
  NotifyKind,
  NotifyPrefs,
  NotifyState,
} from '../../shared/app/notifications.ts';
import { itemsOf, type Item, type Speaker } from './items.ts';

/** At most one notification per agent (or profile, or certificate) in this long. */
const NOTIFY_THROTTLE_MS = 60_000;
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
      for (const { kind, subject, title: t, body, target, actions, agent, record } of items)
        notifications.push({
          id: `${kind}:${subject}:${now}`,
          kind,
          tone: toneOf(kind, subject),
          title: t,
          body,
          target,
          actions,
          ...(agent && { agent }),
          ...(record && { record }),
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
      record: { title: title(items.length), detail: `${named.join(', ')} and ${rest} more.` },
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
