import type { TunnelSession } from '../../shared/api/tunnel-sessions.ts';
import { agentLabel, type MonitorSnapshot, type ProfileSnapshot } from '../../shared/monitor.ts';
import { availability, type SessionAction } from '../../shared/session-rules.ts';
import {
  TRAY_ICONS,
  type TrayAction,
  type TrayConfirm,
  type TrayIconState,
  type TrayItem,
  type TrayModel,
} from '../../shared/tray.ts';

export type TrayProfile = { readonly id: string; readonly name: string; readonly active: boolean };

export type TrayState = {
  readonly profiles: readonly TrayProfile[];
  readonly monitor: MonitorSnapshot;
  /** Agents gone offline since the person last looked: they put the icon in `attention`. */
  readonly unseenOffline: number;
  readonly doNotDisturbUntil: number | null;
  /** Epoch ms. */
  readonly now: number;
};

/** More sessions than this are left to the Sessions screen: a menu is no list of 1,000. */
export const TRAY_MAX_SESSIONS = 15;

const ACTION_LABELS: Readonly<Record<SessionAction, string>> = {
  restart: 'Restart',
  stop: 'Stop',
  update: 'Update',
  'update-and-restart': 'Update and restart',
};

const separator = (id: string): TrayItem => ({ type: 'separator', id });
const item = (id: string, label: string, action?: TrayAction, enabled = true): TrayItem => ({
  type: 'item',
  id,
  label,
  enabled,
  ...(action && { action }),
});

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Why the API cannot act for this profile now, if it cannot. */
function apiBlocked(profile: ProfileSnapshot | undefined): string | undefined {
  if (profile === undefined) return 'The profile is not monitored';
  if (profile.health === 'unreachable') return `The API is unreachable: ${profile.healthReason}`;
  if (profile.health === 'unauthorized') return `The API refuses the key: ${profile.healthReason}`;
  if (profile.health === 'unavailable') return profile.healthReason ?? 'The profile cannot be used';
  return undefined;
}

/** A stopped agent does not come back by itself: both shells ask first, in these words. */
function stopQuestion(session: TunnelSession): TrayConfirm {
  return {
    title: 'Stop this agent?',
    message: `The agent on ${session.ip} (${session.os}) ends its session and exits; it has to be started again on its machine.`,
    confirmLabel: 'Stop agent',
    destructive: true,
  };
}

function sessionMenu(
  session: TunnelSession,
  profileId: string,
  blocked: string | undefined,
): TrayItem {
  const id = `session:${session.id}`;
  const ref = { profileId, sessionId: session.id };
  const actions = (Object.keys(ACTION_LABELS) as SessionAction[]).map((action): TrayItem => {
    const rule = availability(session, action);
    const base = { type: 'item' as const, id: `${id}:${action}` };
    const act = { name: `session.${action}`, by: 'core', ...ref } as TrayAction;
    if (!rule.allowed)
      return {
        ...base,
        label: `${ACTION_LABELS[action]} (${rule.short})`,
        enabled: false,
        tooltip: rule.reason,
        action: act,
      };
    if (blocked !== undefined)
      return {
        ...base,
        label: ACTION_LABELS[action],
        enabled: false,
        tooltip: blocked,
        action: act,
      };
    return {
      ...base,
      label: ACTION_LABELS[action],
      enabled: true,
      action: act,
      ...(action === 'stop' && { confirm: stopQuestion(session) }),
    };
  });
  return {
    type: 'submenu',
    id,
    label: `${agentLabel(session)} · ${session.agent_version}`,
    enabled: true,
    tooltip: `${session.id} · ${session.transport} · since ${session.started_at}`,
    items: [
      ...actions,
      separator(`${id}:copy`),
      item(`${id}:copy-id`, 'Copy session id', {
        name: 'clipboard.copy',
        by: 'shell',
        text: session.id,
      }),
      item(`${id}:copy-ip`, 'Copy IP address', {
        name: 'clipboard.copy',
        by: 'shell',
        text: session.ip,
      }),
    ],
  };
}

function headline(name: string, profile: ProfileSnapshot | undefined): string {
  switch (profile?.health) {
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
      return `${name}: ${plural(profile.sessions.length, 'agent')} online (rate limited)`;
    case 'ok':
      return `${name}: ${plural(profile.sessions.length, 'agent')} online`;
  }
}

function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function pauseMenu(until: number | null, now: number): TrayItem {
  const paused = until !== null && now < until;
  const items: TrayItem[] = paused
    ? [
        item('pause:until', `Paused until ${clock(until)}`, undefined, false),
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

function iconState(profile: ProfileSnapshot | undefined, unseenOffline: number): TrayIconState {
  const health = profile?.health;
  if (health === 'unreachable' || health === 'unauthorized' || health === 'unavailable')
    return 'error';
  if (unseenOffline > 0 || profile?.health === 'rate-limited') return 'attention';
  return 'normal';
}

/**
 * The tray menu for this state: the active profile's health, a submenu per online session with
 * the actions the rules allow (the others disabled, saying why), profile switching, pausing
 * notifications, open and quit. Pure data; the caller renders it and dispatches the actions.
 */
export function trayModel(state: TrayState): TrayModel {
  const active = state.profiles.find((p) => p.active);
  const profile = state.monitor.profiles.find((p) => p.profileId === active?.id);
  const sessions = profile?.sessions ?? [];
  const blocked = apiBlocked(profile);
  const items: TrayItem[] = [];

  items.push(
    item('headline', active ? headline(active.name, profile) : 'No profile', undefined, false),
  );
  if (state.unseenOffline > 0)
    items.push(
      item('unseen', `${plural(state.unseenOffline, 'agent')} went offline`, {
        name: 'app.open',
        by: 'shell',
        screen: 'sessions',
      }),
    );
  if (state.monitor.paused) items.push(item('paused', 'Monitoring paused', undefined, false));
  if (active) {
    items.push(separator('sessions'));
    if (profile?.health === 'unavailable')
      items.push(
        item('sessions:unavailable', `Not monitored: ${profile.healthReason ?? 'unknown reason'}`, {
          name: 'app.open',
          by: 'shell',
          screen: 'settings',
        }),
      );
    else if (sessions.length === 0)
      items.push(item('sessions:none', 'No agents online', undefined, false));
    for (const session of sessions.slice(0, TRAY_MAX_SESSIONS))
      items.push(sessionMenu(session, active.id, blocked));
    if (sessions.length > TRAY_MAX_SESSIONS)
      items.push(
        item('sessions:more', `${sessions.length - TRAY_MAX_SESSIONS} more in Burrow…`, {
          name: 'app.open',
          by: 'shell',
          screen: 'sessions',
        }),
      );
  }
  items.push(separator('settings'));
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
  items.push(item('open', 'Open Burrow', { name: 'app.open', by: 'shell', screen: 'home' }));
  items.push(item('quit', 'Quit Burrow', { name: 'app.quit', by: 'shell' }));

  const iconAt = iconState(profile, state.unseenOffline);
  const tooltip =
    iconAt === 'error'
      ? (blocked ?? 'Burrow')
      : `Burrow${active ? ` · ${headline(active.name, profile)}` : ''}`;
  return {
    icon: { state: iconAt, variant: TRAY_ICONS[iconAt], tooltip },
    title:
      profile?.health === 'ok' || profile?.health === 'rate-limited' ? String(sessions.length) : '',
    items,
  };
}
