import { describe, expect, it } from 'vitest';
import { forwardNotifications } from '../../../../electron/notify.ts';
import { hrefOf } from '../../../../renderer/src/resources/kinds/kind-shape.ts';
import { KINDS, kindsIn } from '../../../../renderer/src/resources/kinds/kind-list.ts';
import { NotificationTarget, type Notification } from '../../../../shared/app/notifications.ts';
import {
  notificationRoute,
  parseRoute,
  routeHref,
  SCREENS,
  type OpenRoute,
} from '../../../../shared/app/routes.ts';
import {
  followTrayItem,
  SEARCH_HREF,
  TrayAction,
  trayRoute,
  type TrayScreen,
  type TrayShell,
} from '../../../../shared/app/tray.ts';

/*
 * Every address a part of Burrow produces, read back by the parser the window uses, opens the
 * screen it names with its params: the Electron shell's notification clicks and tray items, the
 * browser mode's tray panel and notifications (the same functions), and the window's own links.
 */

/** A tray shell that notes each address it is asked to open, and does nothing else. */
function openingShell(): { opened: string[]; shell: TrayShell } {
  const opened: string[] = [];
  const shell: TrayShell = {
    confirm: () => Promise.resolve(false),
    runInCore: () => Promise.resolve(),
    open: (route) => opened.push(route),
    copy: () => undefined,
    quit: () => undefined,
  };
  return { opened, shell };
}

/** Ids as odd as an API or a file name may make them: each must stay one param or segment. */
const ODD = 'a/b?c=d&e#f%20 g+h';

/** One of each notification target; a new kind of target fails the typecheck here. */
const TARGETS: { [T in NotificationTarget['type']]: Extract<NotificationTarget, { type: T }> } = {
  session: { type: 'session', profileId: `prf_${ODD}`, sessionId: `ts_${ODD}` },
  sessions: { type: 'sessions', profileId: `prf_${ODD}` },
  agent: { type: 'agent', profileId: `prf_${ODD}`, agentId: `ag_${ODD}` },
  profile: { type: 'profile', profileId: `prf_${ODD}` },
  certificate: { type: 'certificate', certId: `cert_${ODD}` },
  drift: { type: 'drift', profileId: `prf_${ODD}` },
};

const OPENS: { [T in NotificationTarget['type']]: OpenRoute } = {
  session: {
    screen: 'sessions',
    path: [],
    params: { profile: `prf_${ODD}`, session: `ts_${ODD}` },
  },
  sessions: { screen: 'sessions', path: [], params: { profile: `prf_${ODD}` } },
  agent: {
    screen: 'sessions',
    path: [],
    params: { profile: `prf_${ODD}`, agent: `ag_${ODD}` },
  },
  profile: { screen: 'settings', path: [], params: { profile: `prf_${ODD}` } },
  certificate: { screen: 'ssh', path: [], params: { cert: `cert_${ODD}` } },
  drift: { screen: 'drift', path: [], params: { profile: `prf_${ODD}` } },
};

/** The addresses the Electron shell opens its window at for each notification, clicked. */
function electronNotificationRoutes(): string[] {
  const opened: string[] = [];
  const clicks: (() => void)[] = [];
  const listeners: ((n: Notification) => void)[] = [];
  forwardNotifications(
    {
      onNotification: (listener) => (listeners.push(listener), () => undefined),
      act: () => Promise.resolve(),
    },
    (_options, on) => clicks.push(on.click),
    { openWindow: (route) => opened.push(route), report: () => undefined, platform: 'linux' },
  );
  for (const target of Object.values(TARGETS))
    listeners[0]?.({ id: 'n', kind: 'offline', title: 't', body: 'b', target, actions: [] });
  clicks.forEach((click) => click());
  return opened;
}

describe('routes', () => {
  it('every notification target is covered', () => {
    expect(NotificationTarget.options.map((o) => o.shape.type.value).sort()).toEqual(
      Object.keys(TARGETS).sort(),
    );
  });

  it("a notification's click opens its subject: settings with the profile, the session, the saved certificate", () => {
    const fromElectron = electronNotificationRoutes();
    expect(fromElectron).toHaveLength(Object.keys(TARGETS).length);
    Object.keys(TARGETS).forEach((type, i) => {
      const key = type as NotificationTarget['type'];
      // Browser mode's notifications use the same function the shell does.
      const fromBrowser = routeHref(notificationRoute(TARGETS[key]));
      expect(fromElectron[i]).toBe(fromBrowser);
      expect(parseRoute(fromBrowser), fromBrowser).toEqual(OPENS[key]);
    });
  });

  it("every tray item's screen opens that screen, from Electron's tray and the tray panel", async () => {
    const screens: TrayScreen[] = TrayAction.options.flatMap((o) =>
      'screen' in o.shape ? o.shape.screen.options : [],
    );
    expect(screens).toEqual(['home', 'sessions', 'settings', 'activity']);
    const { opened, shell } = openingShell();
    const opens = screens.flatMap((screen) => [
      { screen },
      { screen, profileId: ODD },
      { screen, profileId: ODD, agentId: ODD },
    ]);
    for (const open of opens)
      await followTrayItem(
        {
          type: 'item',
          id: 'open',
          label: 'Open',
          enabled: true,
          action: { name: 'app.open', by: 'shell', ...open },
        },
        shell,
      );
    // The tray panel sets the window's address to trayRoute(open) itself.
    expect(opened).toEqual(opens.map(trayRoute));
    expect(opened.map(parseRoute)).toEqual([
      { screen: 'sessions', path: [], params: {} },
      { screen: 'sessions', path: [], params: { profile: ODD } },
      { screen: 'sessions', path: [], params: { profile: ODD, agent: ODD } },
      { screen: 'sessions', path: [], params: {} },
      { screen: 'sessions', path: [], params: { profile: ODD } },
      { screen: 'sessions', path: [], params: { profile: ODD, agent: ODD } },
      { screen: 'settings', path: [], params: {} },
      { screen: 'settings', path: [], params: { profile: ODD } },
      // Settings shows no agent: the id goes nowhere.
      { screen: 'settings', path: [], params: { profile: ODD } },
      { screen: 'activity', path: [], params: {} },
      // The record filtered to the profile; it has no agent filter.
      { screen: 'activity', path: [], params: { profile: ODD } },
      { screen: 'activity', path: [], params: { profile: ODD } },
    ]);
  });

  it('the tray\'s "Search…" opens the window at the palette\'s address, the home screen to a window that does not know it', async () => {
    const { opened, shell } = openingShell();
    const action = { name: 'app.search', by: 'shell' } as const;
    await followTrayItem(
      { type: 'item', id: 'search', label: 'Search…', enabled: true, action },
      shell,
    );
    expect(opened).toEqual([SEARCH_HREF]);
    expect(parseRoute(SEARCH_HREF)).toEqual({ screen: 'sessions', path: [], params: {} });
  });

  it("the sidebar's links and every resource list and item open where they say", () => {
    for (const screen of SCREENS)
      expect(parseRoute(routeHref({ screen: screen.id }))).toEqual({
        screen: screen.id,
        path: [],
        params: {},
      });
    for (const kind of KINDS) {
      expect(parseRoute(hrefOf(kind))).toMatchObject({ screen: kind.section, path: [kind.group] });
      expect(parseRoute(hrefOf(kind, `id_${ODD}`))).toMatchObject({
        screen: kind.section,
        path: [kind.group, `id_${ODD}`],
      });
    }
  });

  it('every screen but sessions, SSH, snapshots, drift, activity and settings has lists of its own to show', () => {
    const own = new Set(['sessions', 'ssh', 'snapshots', 'drift', 'activity', 'settings']);
    for (const screen of SCREENS.filter((s) => !own.has(s.id)))
      expect(kindsIn(screen.id).length, screen.id).toBeGreaterThan(0);
  });

  it('reads what a person may type or an old link may hold without failing', () => {
    const home = { screen: 'sessions', path: [], params: {} };
    expect(parseRoute('')).toEqual(home);
    expect(parseRoute('#/')).toEqual(home);
    expect(parseRoute('#/nowhere/x?profile=p')).toEqual(home);
    expect(parseRoute('#/settings?profile=&other=1')).toEqual({
      screen: 'settings',
      path: [],
      params: {},
    });
    // A param another screen declares is not this one's.
    expect(parseRoute('#/edges?profile=p').params).toEqual({});
    expect(parseRoute('#/edges/%E0%A4%A/x').path).toEqual(['%E0%A4%A', 'x']);
    expect(parseRoute('#/ssh/sshCertificateAuthorities/ca_1')).toMatchObject({
      screen: 'ssh',
      path: ['sshCertificateAuthorities', 'ca_1'],
    });
  });

  it('writes params in the order the screen declares, and leaves out the ones it does not', () => {
    expect(routeHref({ screen: 'sessions', params: { session: 's', profile: 'p' } })).toBe(
      '#/sessions?profile=p&session=s',
    );
    const stray = { screen: 'edges', params: { profile: 'p' } } as never;
    expect(routeHref(stray)).toBe('#/edges');
  });
});
