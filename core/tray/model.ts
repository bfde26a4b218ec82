import type { AgentState } from '../../shared/app/agents.ts';
import type { ConfirmRequest } from '../../shared/app/ipc/dialogs.ts';
import { clockTime } from '../../shared/app/clock.ts';
import type { MonitorSnapshot, ProfileSnapshot } from '../../shared/app/monitor.ts';
import {
  TRAY_ICONS,
  TRAY_OWN_ITEMS,
  type TrayIconState,
  type TrayItem,
  type TrayModel,
} from '../../shared/app/tray.ts';
import { agentMenu, trayOrder, type TrayAgent, type TrayProfile } from './agent-menu.ts';
import { item, open, separator } from './items.ts';

/** A profile's API as the monitor last found it. */
export type TrayHealth = Pick<ProfileSnapshot, 'profileId' | 'health' | 'healthReason'>;

export type TrayState = {
  readonly profiles: readonly TrayProfile[];
  /** Each profile's agents (an `AgentsSnapshot`), in any order: the tray orders them itself. */
  readonly agents: {
    readonly profiles: readonly {
      readonly profileId: string;
      readonly agents: readonly TrayAgent[];
    }[];
  };
  readonly monitor: Pick<MonitorSnapshot, 'paused'> & { readonly profiles: readonly TrayHealth[] };
  /** Agents gone offline since the person last looked: they put the icon in `attention`. */
  readonly unseenOffline: number;
  /** Activity entries since the Activity screen was last seen. */
  readonly unseenActivity: number;
  readonly doNotDisturbUntil: number | null;
  /** The agents (by key) whose notifications are off: marked "muted" in their line. */
  readonly mutedAgents?: readonly string[];
  /** Epoch ms. */
  readonly now: number;
  /** While a rolling update runs: its one line ("Rolling update: 4 of 12"), at the top. */
  readonly rolloutLine?: string | null;
  /** Asked before quitting, while quitting would stop something (a rolling update). */
  readonly quitQuestion?: ConfirmRequest | null;
  /** The version of an update downloaded and ready to install, or null. */
  readonly updateReady?: string | null;
};

/**
 * The agents a profile's section lists; the rest are one "Show all" away, so that a menu of a
 * profile with hundreds of agents stays a menu.
 */
export const TRAY_AGENTS_PER_PROFILE = 10;

/** Not listed by the last poll: no session to act on. */
const DISCONNECTED: ReadonlySet<AgentState> = new Set(['lost', 'offline', 'stopped']);

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Why the API cannot act for this profile now, if it cannot. */
function apiBlocked(health: TrayHealth | undefined): string | undefined {
  if (health === undefined) return 'The profile is not monitored';
  if (health.health === 'unreachable') return `The API is unreachable: ${health.healthReason}`;
  if (health.health === 'unauthorized') return `The API refuses the key: ${health.healthReason}`;
  if (health.health === 'unavailable') return health.healthReason ?? 'The profile cannot be used';
  return undefined;
}

/** The agents connected now, for counts. */
function connected(agents: readonly TrayAgent[]): number {
  return agents.filter((a) => !DISCONNECTED.has(a.state)).length;
}

function headline(name: string, health: TrayHealth | undefined, agents: readonly TrayAgent[]) {
  const missing = agents.filter((a) => a.state === 'lost' || a.state === 'offline').length;
  const counts = `${plural(connected(agents), 'agent')} online${missing > 0 ? `, ${missing} offline` : ''}`;
  switch (health?.health) {
    case undefined:
    case 'unknown':
      return `${name}: checking…`;
    case 'unreachable':
      return `${name}: API unreachable`;
    case 'unauthorized':
      return `${name}: API key refused`;
    case 'unavailable':
      return `${name}: not monitored`;
    case 'rate-limited':
      return `${name}: ${counts} (rate limited)`;
    case 'ok':
      return `${name}: ${counts}`;
  }
}

/**
 * One profile's section: its headline (which opens its Sessions screen), why it is not
 * monitored if it is not, its first agents by state, and "Show all" when there are more.
 */
function profileSection(
  profile: TrayProfile,
  health: TrayHealth | undefined,
  agents: readonly TrayAgent[],
  { now, muted }: { readonly now: number; readonly muted: ReadonlySet<string> },
): TrayItem[] {
  const id = `section:${profile.id}`;
  const blocked = apiBlocked(health);
  const items: TrayItem[] = [
    item(`${id}:headline`, headline(profile.name, health, agents), open('sessions', profile.id)),
  ];
  if (health?.health === 'unavailable')
    items.push(
      item(
        `${id}:unavailable`,
        `Not monitored: ${health.healthReason ?? 'unknown reason'}`,
        open('settings', profile.id),
      ),
    );
  else if (agents.length === 0) items.push(item(`${id}:none`, 'No agents', undefined, false));
  for (const agent of trayOrder(agents).slice(0, TRAY_AGENTS_PER_PROFILE))
    items.push(agentMenu(agent, profile, blocked, now, muted.has(agent.key)));
  if (agents.length > TRAY_AGENTS_PER_PROFILE)
    items.push(
      item(`${id}:all`, `Show all ${agents.length} in Burrow…`, open('sessions', profile.id)),
    );
  return items;
}

function pauseMenu(until: number | null, now: number): TrayItem {
  const paused = until !== null && now < until;
  const items: TrayItem[] = paused
    ? [
        item('pause:until', `Paused until ${clockTime(until, now)}`, undefined, false),
        item('pause:resume', 'Resume notifications', { name: 'notifications.resume', by: 'core' }),
      ]
    : [
        item('pause:hour', 'For 1 hour', { name: 'notifications.pause', by: 'core', for: 'hour' }),
        item('pause:tomorrow', 'Until tomorrow morning', {
          name: 'notifications.pause',
          by: 'core',
          for: 'tomorrow',
        }),
      ];
  return {
    type: 'submenu',
    id: 'pause',
    label: paused ? 'Notifications paused' : 'Pause notifications',
    enabled: true,
    items,
  };
}

/** "3 new": the activity since the Activity screen was last seen, opening it; none once seen. */
function activityItems(unseen: number): TrayItem[] {
  return unseen > 0 ? [item('activity', `${unseen} new in Activity`, open('activity'))] : [];
}

const isError = (health: TrayHealth | undefined) =>
  health?.health === 'unreachable' ||
  health?.health === 'unauthorized' ||
  health?.health === 'unavailable';

/**
 * Struck through when the active profile's API is out of reach; a dot when agents went offline
 * unseen, the active API is rate limited or another profile's API is out of reach.
 */
function iconState(
  active: TrayHealth | undefined,
  others: readonly (TrayHealth | undefined)[],
  unseenOffline: number,
): TrayIconState {
  if (isError(active)) return 'error';
  if (unseenOffline > 0 || active?.health === 'rate-limited' || others.some(isError))
    return 'attention';
  return 'normal';
}

/**
 * The tray menu for this state: a section per profile (the active one first) with its API's
 * health and its first agents, lost and offline first, each a submenu with the actions the rules
 * allow (the others disabled, saying why; Stop asking first), then profile switching, pausing
 * notifications, open and quit. Pure data; the caller renders it and dispatches the actions.
 */
export function trayModel(state: TrayState): TrayModel {
  const active = state.profiles.find((p) => p.active);
  const ordered = [...state.profiles].sort((a, b) => Number(b.active) - Number(a.active));
  const healthOf = (id: string) => state.monitor.profiles.find((p) => p.profileId === id);
  const agentsOf = (id: string) =>
    state.agents.profiles.find((p) => p.profileId === id)?.agents ?? [];
  const activeHealth = active && healthOf(active.id);
  const items: TrayItem[] = [];

  if (state.rolloutLine) items.push(item('rollout', state.rolloutLine, open('sessions')));
  if (!active) items.push(item('headline', 'No profile', undefined, false));
  if (state.unseenOffline > 0)
    items.push(
      item('unseen', `${plural(state.unseenOffline, 'agent')} went offline`, open('sessions')),
    );
  items.push(...activityItems(state.unseenActivity));
  if (state.monitor.paused) items.push(item('paused', 'Monitoring paused', undefined, false));
  for (const profile of ordered) {
    if (items.length > 0) items.push(separator(`section:${profile.id}`));
    items.push(
      ...profileSection(profile, healthOf(profile.id), agentsOf(profile.id), {
        now: state.now,
        muted: new Set(state.mutedAgents),
      }),
    );
  }
  items.push(separator(TRAY_OWN_ITEMS));
  if (state.profiles.length > 0)
    items.push({
      type: 'submenu',
      id: 'profiles',
      label: 'Profile',
      enabled: true,
      items: state.profiles.map((p) => ({
        type: 'checkbox',
        id: `profile:${p.id}`,
        label: p.name,
        enabled: !p.active,
        checked: p.active,
        action: { name: 'profile.switch', by: 'core', profileId: p.id },
      })),
    });
  items.push(pauseMenu(state.doNotDisturbUntil, state.now));
  items.push(separator('app'));
  if (state.updateReady)
    items.push(
      item('update', `Restart to update to ${state.updateReady}`, {
        name: 'app.update',
        by: 'core',
      }),
    );
  items.push(item('search', 'Search…', { name: 'app.search', by: 'shell' }));
  items.push(item('open', 'Open Burrow', open('home')));
  items.push({
    ...item('quit', 'Quit Burrow', { name: 'app.quit', by: 'shell' }),
    ...(state.quitQuestion && { confirm: state.quitQuestion }),
  });

  const iconAt = iconState(
    activeHealth,
    ordered.filter((p) => !p.active).map((p) => healthOf(p.id)),
    state.unseenOffline,
  );
  // The count is the fleet's: every profile whose API answers, not the active one alone.
  const counted = state.profiles.filter((p) => {
    const health = healthOf(p.id)?.health;
    return health === 'ok' || health === 'rate-limited';
  });
  const online = counted.reduce((n, p) => n + connected(agentsOf(p.id)), 0);
  const activeAgents = active ? agentsOf(active.id) : [];
  const tooltip =
    iconAt === 'error'
      ? (apiBlocked(activeHealth) ?? 'Burrow')
      : state.profiles.length > 1
        ? `Burrow · ${plural(online, 'agent')} online in ${plural(counted.length, 'profile')}`
        : `Burrow${active ? ` · ${headline(active.name, activeHealth, activeAgents)}` : ''}`;
  return {
    icon: { state: iconAt, variant: TRAY_ICONS[iconAt], tooltip },
    // Struck through, the icon says what matters: no count beside it.
    title: iconAt !== 'error' && counted.length > 0 ? String(online) : '',
    items,
  };
}
