import { describe, expect, it } from 'vitest';
import type { TrayAgent } from '../../../../core/tray/agent-menu.ts';
import { trayModel, TRAY_AGENTS_PER_PROFILE, type TrayState } from '../../../../core/tray/model.ts';
import type { TunnelSession } from '../../../../shared/api/kinds/tunnel-sessions.ts';
import type { AgentState } from '../../../../shared/app/agents.ts';
import type { MonitorHealth } from '../../../../shared/app/monitor.ts';
import {
  findTrayItem,
  followTrayItem,
  trayMenuParts,
  TrayModel,
  trayRoute,
  type TrayItem,
} from '../../../../shared/app/tray.ts';
import { session } from '../../../support/tunnel-sessions.ts';
import { clockTime } from '../../../../shared/app/clock.ts';

const NOW = new Date(2026, 10, 23, 10, 0).getTime();
const EARLIER = new Date(2026, 10, 23, 9, 41).getTime();

/** The tray's own items, below the profiles' sections, with a profile to choose. */
const OWN_ITEMS = [
  'Profile',
  'Pause notifications',
  '---',
  'Search…',
  'Open Burrow',
  'Quit Burrow',
];

function agent(name: string, state: AgentState = 'online', of: Partial<TunnelSession> = {}) {
  return {
    id: `ag_${name}`,
    key: `key of ${name}`,
    name,
    state,
    session: session({ metadata: name, ...of }),
    lastSeenAt: EARLIER,
    updateBlocked: null,
  } satisfies TrayAgent;
}

const web = agent('web');
const build = agent('build', 'online', { os: 'windows', agent_version: '3.3.0' });
const ssh = agent('ssh', 'online', { transport: 'ssh', agent_version: 'OpenSSH_9.2p1' });

const health = (profileId: string, value: MonitorHealth = 'ok') => ({
  profileId,
  health: value,
  healthReason: value === 'ok' ? null : 'connection refused',
});

function state(overrides: Partial<TrayState> = {}, acme: MonitorHealth = 'ok'): TrayState {
  return {
    profiles: [
      { id: 'globex', name: 'Globex', active: false },
      { id: 'acme', name: 'Acme', active: true },
    ],
    agents: {
      profiles: [
        { profileId: 'acme', agents: [web, build, ssh] },
        { profileId: 'globex', agents: [agent('db', 'offline')] },
      ],
    },
    monitor: { paused: false, profiles: [health('acme', acme), health('globex')] },
    unseenOffline: 0,
    unseenActivity: 0,
    doNotDisturbUntil: null,
    now: NOW,
    ...overrides,
  };
}

const find = findTrayItem;

const labels = (items: TrayItem[]) => items.map((i) => (i.type === 'separator' ? '---' : i.label));

describe('trayModel', () => {
  it("shows a running rollout's line at the top and asks before quitting while it runs", () => {
    const quitQuestion = {
      title: 'Quit Burrow?',
      message: 'A rollout is running.',
      confirmLabel: 'Quit and cancel it',
    };
    const model = trayModel(state({ rolloutLine: 'Rolling update: 4 of 12', quitQuestion }));
    expect(labels(model.items)[0]).toBe('Rolling update: 4 of 12');
    expect(find(model.items, 'quit')).toMatchObject({ confirm: quitQuestion });
    const idle = trayModel(state());
    expect(find(idle.items, 'rollout')).toBeUndefined();
    expect(find(idle.items, 'quit')).not.toHaveProperty('confirm');
  });

  it('has a section per profile, the active one first, as plain JSON the schema reads back', () => {
    const model = trayModel(state());
    expect(TrayModel.parse(JSON.parse(JSON.stringify(model)))).toEqual(model);
    expect(model.icon).toEqual({
      state: 'normal',
      variant: 'burrow',
      tooltip: 'Burrow · 3 agents online in 2 profiles',
    });
    expect(model.title).toBe('3');
    expect(labels(model.items)).toEqual([
      'Acme: 3 agents online',
      'build · 3.3.0',
      'ssh · OpenSSH_9.2p1',
      'web · 3.1.2',
      '---',
      'Globex: 0 agents online, 1 offline',
      `db · offline · last seen ${clockTime(EARLIER, NOW)}`,
      '---',
      ...OWN_ITEMS,
    ]);
    expect(find(model.items, 'section:globex:headline')).toMatchObject({
      enabled: true,
      action: { name: 'app.open', screen: 'sessions', profileId: 'globex' },
    });
    // A shell short of room keeps the tray's own items in view, below the sections.
    expect(labels([...trayMenuParts(model.items).own])).toEqual(OWN_ITEMS);
  });

  it("gives a connected agent Open, its actions and copies; Stop asks with the agent's and profile's names", () => {
    const menu = find(trayModel(state()).items, `agent:${web.id}`);
    expect(menu).toMatchObject({
      type: 'submenu',
      tooltip: expect.stringContaining(web.session.id),
    });
    const items = menu?.type === 'submenu' ? menu.items : [];
    expect(labels(items)).toEqual([
      'Open in Burrow',
      '---',
      'Restart',
      'Stop',
      'Update',
      'Update and restart',
      '---',
      'Copy session id',
      'Copy IP address',
    ]);
    expect(find(items, `agent:${web.id}:open`)).toMatchObject({
      action: { name: 'app.open', screen: 'sessions', profileId: 'acme', agentId: web.id },
    });
    expect(find(items, `agent:${web.id}:stop`)).toEqual({
      type: 'item',
      id: `agent:${web.id}:stop`,
      label: 'Stop',
      enabled: true,
      action: { name: 'session.stop', by: 'core', profileId: 'acme', sessionId: web.session.id },
      confirm: {
        title: 'Stop this agent?',
        message:
          'web (Acme, on 127.0.0.1, linux) ends its session and exits; it has to be started again on its machine.',
        confirmLabel: 'Stop agent',
        destructive: true,
      },
    });
    for (const action of ['restart', 'update', 'update-and-restart'])
      expect(find(items, `agent:${web.id}:${action}`)).not.toHaveProperty('confirm');
  });

  it('marks a muted agent in its line: its notifications are off', () => {
    const model = trayModel(state({ mutedAgents: ['key of web', 'key of db'] }));
    expect(labels(model.items)).toEqual(
      expect.arrayContaining([
        'web · 3.1.2 · muted',
        'build · 3.3.0',
        `db · offline · last seen ${clockTime(EARLIER, NOW)} · muted`,
      ]),
    );
  });

  it('gives an offline agent no actions, only Open and its last session', () => {
    const menu = find(trayModel(state()).items, 'agent:ag_db');
    expect(menu?.type === 'submenu' && labels(menu.items)).toEqual([
      'Open in Burrow',
      '---',
      'Copy last session id',
      'Copy IP address',
    ]);
  });

  it('disables and labels what the rules, the state and the agent forbid', () => {
    const restarting = agent('r', 'restarting');
    const ready = { ...agent('u', 'update-ready'), updateBlocked: 'Restart it to run 3.3.0' };
    const model = trayModel(
      state({
        agents: { profiles: [{ profileId: 'acme', agents: [web, build, ssh, restarting, ready] }] },
      }),
    );
    expect(find(model.items, `agent:${build.id}:restart`)).toMatchObject({
      label: 'Restart (not on Windows)',
      enabled: false,
      tooltip: 'Restart is not supported on Windows agents.',
    });
    expect(find(model.items, `agent:${build.id}:update`)).toMatchObject({ enabled: true });
    for (const action of ['restart', 'update', 'update-and-restart'])
      expect(find(model.items, `agent:${ssh.id}:${action}`)).toMatchObject({
        label: expect.stringMatching(/\(not on SSH sessions\)$/),
        enabled: false,
      });
    expect(find(model.items, `agent:${ssh.id}:stop`)).toMatchObject({ enabled: true });
    expect(find(model.items, `agent:${restarting.id}:stop`)).toMatchObject({
      enabled: false,
      tooltip: 'It is restarting',
    });
    expect(find(model.items, `agent:${ready.id}:restart`)).toMatchObject({ enabled: true });
    expect(find(model.items, `agent:${ready.id}:update`)).toMatchObject({
      enabled: false,
      tooltip: 'Restart it to run 3.3.0',
    });
  });

  it.each([
    ['stopped', `stopped · last seen ${clockTime(EARLIER, NOW)}`, undefined],
    ['restarting', 'restarting…', 'It is restarting'],
    ['updating', 'updating…', 'It is updating'],
    ['stopping', 'stopping…', 'It is stopping'],
  ] as const)(
    'says a %s agent so after its name, and why it takes no command',
    (as, words, why) => {
      const one = agent('one', as);
      const model = trayModel(
        state({ agents: { profiles: [{ profileId: 'acme', agents: [one] }] } }),
      );
      expect(find(model.items, `agent:${one.id}`)).toMatchObject({ label: `one · ${words}` });
      if (why) expect(find(model.items, `agent:${one.id}:stop`)).toMatchObject({ tooltip: why });
    },
  );

  it('lists lost and offline agents first, then by name, and leaves hundreds to "Show all"', () => {
    const states: AgentState[] = ['online', 'stopped', 'update-ready', 'restarting'];
    const many = Array.from({ length: 300 }, (_, i) =>
      agent(`m${String(i).padStart(3, '0')}`, states[i % states.length]),
    );
    const lost = agent('z-lost', 'lost');
    const offline = agent('a-offline', 'offline');
    const model = trayModel(
      state({
        agents: {
          profiles: [
            { profileId: 'acme', agents: [...many, offline, lost] },
            { profileId: 'globex', agents: many.map((a) => ({ ...a, id: `${a.id}-g` })) },
          ],
        },
      }),
    );
    const section = (id: string) =>
      model.items.filter(
        (i) => i.type === 'submenu' && i.id.startsWith('agent:') && i.id.endsWith(id),
      );
    const acme = model.items.filter(
      (i) => i.type === 'submenu' && i.id.startsWith('agent:') && !i.id.endsWith('-g'),
    );
    expect(acme).toHaveLength(TRAY_AGENTS_PER_PROFILE);
    expect(section('-g')).toHaveLength(TRAY_AGENTS_PER_PROFILE);
    expect(labels(acme).slice(0, 4)).toEqual([
      'z-lost · missed the last poll',
      `a-offline · offline · last seen ${clockTime(EARLIER, NOW)}`,
      'm003 · restarting…',
      'm007 · restarting…',
    ]);
    expect(find(model.items, 'section:acme:all')).toMatchObject({
      label: 'Show all 302 in Burrow…',
      action: { name: 'app.open', screen: 'sessions', profileId: 'acme' },
    });
    expect(find(model.items, 'section:acme:headline')).toMatchObject({
      label: 'Acme: 225 agents online, 2 offline',
    });
    // The count is every profile's: 225 online in each.
    expect(model.title).toBe('450');
    // A menu, not a list: two profiles of 300 agents stay within a few dozen entries.
    expect(model.items.length).toBeLessThan(40);
  });

  it("counts every profile's online agents on the icon, those of an API out of reach left out", () => {
    const fleet = (globex: MonitorHealth) =>
      trayModel(
        state({
          agents: {
            profiles: [
              { profileId: 'acme', agents: [web, build, agent('gone', 'offline')] },
              { profileId: 'globex', agents: [agent('g1'), agent('g2'), agent('g3', 'lost')] },
            ],
          },
          monitor: { paused: false, profiles: [health('acme'), health('globex', globex)] },
        }),
      );
    expect(fleet('ok').title).toBe('4');
    expect(fleet('ok').icon.tooltip).toBe('Burrow · 4 agents online in 2 profiles');
    expect(fleet('unreachable').title).toBe('2');
    expect(fleet('unreachable').icon.tooltip).toBe('Burrow · 2 agents online in 1 profile');
  });

  it('shows the error icon and disables actions when the active API is out of reach', () => {
    const model = trayModel(state({}, 'unreachable'));
    expect(model.icon).toMatchObject({ state: 'error', variant: 'burrow-slash' });
    expect(model.icon.tooltip).toBe('The API is unreachable: connection refused');
    expect(model.title).toBe('');
    expect(labels(model.items)[0]).toBe('Acme: API unreachable');
    expect(find(model.items, `agent:${web.id}:stop`)).toMatchObject({
      enabled: false,
      tooltip: 'The API is unreachable: connection refused',
    });
    expect(trayModel(state({}, 'unauthorized')).icon.variant).toBe('burrow-slash');
  });

  it("puts a dot on the icon when another profile's API is out of reach, and disables only its actions", () => {
    const globex = agent('g');
    const model = trayModel(
      state({
        agents: {
          profiles: [
            { profileId: 'acme', agents: [web] },
            { profileId: 'globex', agents: [globex] },
          ],
        },
        monitor: { paused: false, profiles: [health('acme'), health('globex', 'unreachable')] },
      }),
    );
    expect(model.icon.state).toBe('attention');
    expect(find(model.items, 'section:globex:headline')).toMatchObject({
      label: 'Globex: API unreachable',
    });
    expect(find(model.items, `agent:${globex.id}:restart`)).toMatchObject({ enabled: false });
    expect(find(model.items, `agent:${web.id}:restart`)).toMatchObject({ enabled: true });
  });

  it("says why a profile is not monitored, and opens that profile's Settings to mend it", () => {
    const unavailable = { ...health('acme', 'unavailable'), healthReason: 'The key is not stored' };
    const model = trayModel(
      state({
        agents: { profiles: [] },
        monitor: { paused: false, profiles: [unavailable, health('globex')] },
      }),
    );
    expect(model.icon).toMatchObject({ state: 'error', tooltip: 'The key is not stored' });
    expect(model.title).toBe('');
    expect(labels(model.items).slice(0, 2)).toEqual([
      'Acme: not monitored',
      'Not monitored: The key is not stored',
    ]);
    expect(find(model.items, 'section:acme:unavailable')).toMatchObject({
      enabled: true,
      action: { name: 'app.open', screen: 'settings', profileId: 'acme' },
    });
    expect(find(model.items, 'section:globex:none')).toMatchObject({
      label: 'No agents',
      enabled: false,
    });
  });

  it('asks for attention, with a badge, for agents gone offline unseen', () => {
    const model = trayModel(state({ unseenOffline: 2 }));
    expect(model.icon).toMatchObject({ state: 'attention', variant: 'burrow-badge' });
    expect(find(model.items, 'unseen')).toMatchObject({
      label: '2 agents went offline',
      action: { name: 'app.open', screen: 'sessions' },
    });
    expect(trayModel(state({}, 'rate-limited')).icon.state).toBe('attention');
  });

  it('says how much activity is new, opening the Activity screen, and nothing once seen', () => {
    const model = trayModel(state({ unseenActivity: 3 }));
    expect(find(model.items, 'activity')).toMatchObject({
      label: '3 new in Activity',
      enabled: true,
      action: { name: 'app.open', by: 'shell', screen: 'activity' },
    });
    expect(trayRoute({ screen: 'activity' })).toBe('#/activity');
    expect(find(trayModel(state()).items, 'activity')).toBeUndefined();
  });

  it('switches profiles with checkboxes, the active one checked', () => {
    const menu = find(trayModel(state()).items, 'profiles');
    expect(menu?.type === 'submenu' && menu.items).toEqual([
      {
        type: 'checkbox',
        id: 'profile:globex',
        label: 'Globex',
        enabled: true,
        checked: false,
        action: { name: 'profile.switch', by: 'core', profileId: 'globex' },
      },
      {
        type: 'checkbox',
        id: 'profile:acme',
        label: 'Acme',
        enabled: false,
        checked: true,
        action: { name: 'profile.switch', by: 'core', profileId: 'acme' },
      },
    ]);
  });

  it('pauses notifications for an hour or until tomorrow, and resumes them', () => {
    const running = find(trayModel(state()).items, 'pause');
    expect(running?.type === 'submenu' && labels(running.items)).toEqual([
      'For 1 hour',
      'Until tomorrow morning',
    ]);
    const paused = find(trayModel(state({ doNotDisturbUntil: NOW + 90 * 60_000 })).items, 'pause');
    expect(paused).toMatchObject({ label: 'Notifications paused' });
    expect(paused?.type === 'submenu' && paused.items).toMatchObject([
      { label: `Paused until ${clockTime(NOW + 90 * 60_000, NOW)}`, enabled: false },
      { label: 'Resume notifications', enabled: true, action: { name: 'notifications.resume' } },
    ]);
  });

  it('says when monitoring is paused', () => {
    const model = trayModel(state({ monitor: { paused: true, profiles: [health('acme')] } }));
    expect(find(model.items, 'paused')).toMatchObject({ label: 'Monitoring paused' });
    expect(find(model.items, 'section:globex:headline')).toMatchObject({
      label: 'Globex: checking…',
    });
  });

  it('still makes a menu with no profile at all', () => {
    const model = trayModel(
      state({ profiles: [], agents: { profiles: [] }, monitor: { paused: false, profiles: [] } }),
    );
    expect(labels(model.items)).toEqual([
      'No profile',
      '---',
      'Pause notifications',
      '---',
      'Search…',
      'Open Burrow',
      'Quit Burrow',
    ]);
    expect(model.icon.state).toBe('normal');
  });
});

it('offers "Restart to update" once an update is ready, run by core on the click', () => {
  expect(find(trayModel(state()).items, 'update')).toBeUndefined();
  const items = trayModel(state({ updateReady: '1.5.0' })).items;
  expect(find(items, 'update')).toEqual({
    type: 'item',
    id: 'update',
    label: 'Restart to update to 1.5.0',
    enabled: true,
    action: { name: 'app.update', by: 'core' },
  });
  expect(labels(items).slice(-4)).toEqual([
    'Restart to update to 1.5.0',
    'Search…',
    'Open Burrow',
    'Quit Burrow',
  ]);
});

describe('what a click does, decided once by the model and followed by both shells', () => {
  function shell(confirms: boolean) {
    const done: string[] = [];
    return {
      done,
      confirm: async (request: { title: string }) => {
        done.push(`asked ${request.title}`);
        return confirms;
      },
      runInCore: async (itemId: string) => void done.push(`core ${itemId}`),
      open: (route: string) => void done.push(`open ${route}`),
      copy: (text: string) => void done.push(`copy ${text}`),
      quit: () => void done.push('quit'),
    };
  }
  const clickable = (id: string) => {
    const item = find(trayModel(state()).items, id);
    if (item?.type !== 'item' && item?.type !== 'checkbox') throw new Error(`no item ${id}`);
    return item;
  };

  it('asks before a stop and stops only on yes', async () => {
    const stop = clickable(`agent:${web.id}:stop`);
    const no = shell(false);
    await followTrayItem(stop, no);
    expect(no.done).toEqual(['asked Stop this agent?']);
    const yes = shell(true);
    await followTrayItem(stop, yes);
    expect(yes.done).toEqual(['asked Stop this agent?', `core agent:${web.id}:stop`]);
  });

  it('runs the other core items at once and keeps open, copy and quit in the shell', async () => {
    const s = shell(false);
    for (const id of [
      `agent:${web.id}:restart`,
      'profile:globex',
      'pause:hour',
      `agent:${web.id}:copy-ip`,
      `agent:${web.id}:open`,
      'section:globex:headline',
      'open',
      'quit',
    ])
      await followTrayItem(clickable(id), s);
    expect(s.done).toEqual([
      `core agent:${web.id}:restart`,
      'core profile:globex',
      'core pause:hour',
      `copy ${web.session.ip}`,
      `open #/sessions?profile=acme&agent=${web.id}`,
      'open #/sessions?profile=globex',
      'open #/sessions',
      'quit',
    ]);
  });

  it('does nothing for a disabled item', async () => {
    const s = shell(true);
    await followTrayItem(clickable(`agent:${build.id}:restart`), s);
    expect(s.done).toEqual([]);
  });
});
