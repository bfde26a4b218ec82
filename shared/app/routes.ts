import type { NotificationTarget } from './notifications.ts';

/*
 * The window's addresses, one module for every part that makes or reads one: the Electron shell
 * opening the window at a notification's subject, the tray's "Open …" items, browser mode's
 * notifications and tray panel, and the renderer's links and its parser. An address is
 * `#/<screen>[/<segment>…][?<param>=<value>&…]`, every segment and value percent-encoded, so an
 * odd id cannot change an address's shape.
 */

/**
 * The window's screens in sidebar order: each declares here, once, its label and the params its
 * address may carry (anything else in an address is ignored).
 */
export const SCREENS = [
  /**
   * `profile`: whose agents (else the active profile's); `agent`: the agent (its `Agent.id`) to
   * show open; `session`: a session id, open as its agent. The fleet's filters, each a
   * comma-separated list where it takes many: `state`, `os`, `region`, `below` (a version),
   * `outdated` (`1`), `q` (text over names and metadata); with several profiles `profile` is the
   * filter's too.
   */
  {
    id: 'sessions',
    label: 'Sessions',
    params: ['profile', 'agent', 'session', 'state', 'os', 'region', 'below', 'outdated', 'q'],
  },
  { id: 'edges', label: 'Edges', params: [] },
  { id: 'backends', label: 'Backends', params: [] },
  { id: 'credentials', label: 'Credentials', params: [] },
  /** `cert`: a certificate saved on this machine, shown in the saved certificates' tab. */
  { id: 'ssh', label: 'SSH', params: ['cert'] },
  { id: 'ip-policies', label: 'IP policies', params: [] },
  { id: 'agent-ingresses', label: 'Agent ingresses', params: [] },
  { id: 'abuse-reports', label: 'Abuse reports', params: [] },
  { id: 'snapshots', label: 'Snapshots', params: [] },
  /** `profile`: the profile whose drift to point out (a drift notice's subject). */
  { id: 'drift', label: 'Drift', params: ['profile'] },
  /** `profile`, `kind`: the record's filters. */
  { id: 'activity', label: 'Activity', params: ['profile', 'kind'] },
  /** `profile`: the profile to point out (a notification about its key, its address). */
  { id: 'settings', label: 'Settings', params: ['profile'] },
] as const;

type Screen = (typeof SCREENS)[number];
export type ScreenId = Screen['id'];
export type ScreenParams<S extends ScreenId> = Partial<
  Record<Extract<Screen, { id: S }>['params'][number], string>
>;

/** Where the window is: a screen, the list and item below it (`['httpsEdges', 'edghts_1']`), its params. */
export type Route<S extends ScreenId = ScreenId> = S extends ScreenId
  ? { readonly screen: S; readonly path?: readonly string[]; readonly params?: ScreenParams<S> }
  : never;

/** A route as the parser answers it: every part present. */
export type OpenRoute<S extends ScreenId = ScreenId> = S extends ScreenId
  ? { readonly screen: S; readonly path: readonly string[]; readonly params: ScreenParams<S> }
  : never;

/** Where an empty or unknown address lands. */
export const HOME = { screen: 'sessions' } as const satisfies Route;

export function routeHref(route: Route): string {
  const path = [route.screen, ...(route.path ?? [])].map(encodeURIComponent).join('/');
  const params: Readonly<Record<string, string | undefined>> = route.params ?? {};
  const query = screenOf(route.screen)
    .params.flatMap((name) => {
      const value = params[name];
      return value === undefined ? [] : [`${name}=${encodeURIComponent(value)}`];
    })
    .join('&');
  return `#/${path}${query ? `?${query}` : ''}`;
}

/** The route an address names; an unknown screen is the home screen, an unknown param dropped. */
export function parseRoute(hash: string): OpenRoute {
  const address = hash.replace(/^#\/?/, '');
  const queryAt = address.indexOf('?');
  const [first, ...path] = (queryAt < 0 ? address : address.slice(0, queryAt))
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment);
  const screen = SCREENS.find((s) => s.id === first);
  if (!screen) return { screen: HOME.screen, path: [], params: {} };
  const query = new URLSearchParams(queryAt < 0 ? '' : address.slice(queryAt + 1));
  const params = Object.fromEntries(
    screen.params.flatMap((name) => {
      const value = query.get(name);
      return value ? [[name, value]] : [];
    }),
  );
  return { screen: screen.id, path, params } as OpenRoute;
}

/** What clicking a notification opens: the thing it is about. */
export function notificationRoute(target: NotificationTarget): Route {
  switch (target.type) {
    case 'session':
      return {
        screen: 'sessions',
        params: { profile: target.profileId, session: target.sessionId },
      };
    case 'agent':
      return { screen: 'sessions', params: { profile: target.profileId, agent: target.agentId } };
    case 'sessions':
      return { screen: 'sessions', params: { profile: target.profileId } };
    case 'profile':
      return { screen: 'settings', params: { profile: target.profileId } };
    case 'certificate':
      return { screen: 'ssh', params: { cert: target.certId } };
    case 'drift':
      return { screen: 'drift', params: { profile: target.profileId } };
  }
}

function screenOf(id: ScreenId): Screen {
  return SCREENS.find((s) => s.id === id) ?? SCREENS[0];
}

/** A hand-typed address may hold a stray `%`: it stays as typed rather than failing the parse. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
