import { describe, expect, it } from 'vitest';
import type { TrayState } from '../../../../core/tray/model.ts';
import { TrayService } from '../../../../core/tray/service.ts';
import { Emitter } from '../../../../shared/app/emitter.ts';
import type { ProfilesState } from '../../../../shared/app/ipc/profiles.ts';
import { agentId } from '../../../../shared/app/agents.ts';
import {
  agentKey,
  type MonitorEvent,
  type MonitorSnapshot,
} from '../../../../shared/app/monitor.ts';
import type { TrayModel } from '../../../../shared/app/tray.ts';
import type { UpdateState } from '../../../../shared/app/ipc/updates.ts';
import { profilesState } from '../../../support/profiles.ts';
import { session } from '../../../support/tunnel-sessions.ts';
import { memorySettings, recordedActions } from '../support.ts';
import { clockTime } from '../../../../shared/app/clock.ts';

// A time of day the locale writes its own way ("09:05", "9:05 AM"); the date too, not being today.
const SEEN = new Date(2026, 10, 23, 9, 5).getTime();

const web = session({ metadata: 'web' });

function setup() {
  const settings = memorySettings();
  let state = profilesState([
    { id: 'acme', name: 'Acme', baseUrl: 'https://a.example', kind: 'remote' },
    { id: 'globex', name: 'Globex', baseUrl: 'https://g.example', kind: 'remote' },
  ]);
  const profileChanges = new Emitter<ProfilesState>('profiles');
  const events = new Emitter<MonitorEvent>('events');
  const snapshot: MonitorSnapshot = {
    paused: false,
    profiles: [
      {
        profileId: 'acme',
        health: 'ok',
        healthReason: null,
        sessions: [web],
        lastPollAt: 0,
        polls: 1,
        pages: 1,
        intervalMs: 15_000,
      },
    ],
  };
  let agents: TrayState['agents'] = {
    profiles: [
      {
        profileId: 'acme',
        agents: [
          {
            id: agentId('acme', agentKey(web)),
            key: agentKey(web),
            name: 'web',
            state: 'online',
            session: web,
            lastSeenAt: 0,
            updateBlocked: null,
          },
        ],
      },
    ],
  };
  const agentChanges = new Emitter<null>('agents');
  const setAgents = (next: TrayState['agents']) => {
    agents = next;
    agentChanges.emit(null);
  };
  const { ran, runSession } = recordedActions();
  const paused: string[] = [];
  let unseen = 0;
  const activityChanges = new Emitter<number>('activity');
  const setUnseen = (next: number) => {
    unseen = next;
    activityChanges.emit(next);
  };
  let update: UpdateState = {
    phase: 'idle',
    current: '1.4.0',
    offered: null,
    message: 'Burrow is up to date (1.4.0)',
    lastCheck: null,
    nextCheckAt: null,
  };
  const updateChanges = new Emitter<UpdateState>('updates');
  const setUpdate = (next: Partial<UpdateState>) =>
    updateChanges.emit((update = { ...update, ...next }));
  const installs: string[] = [];
  const tray = new TrayService({
    profiles: {
      state: () => state,
      onChange: (listener) => profileChanges.subscribe(listener),
      switch: (id) => {
        state = { ...state, activeId: id };
        profileChanges.emit(state);
        return state;
      },
    },
    agents: { snapshot: () => agents, onChange: (listener) => agentChanges.subscribe(listener) },
    watched: {
      snapshot: () => snapshot,
      onSnapshot: () => () => undefined,
      onEvent: (listener) => events.subscribe(listener),
    },
    settings,
    runSession,
    pauseNotifications: (choice) => paused.push(choice),
    activity: { unseen: () => unseen, onChange: (l) => activityChanges.subscribe(l) },
    updates: {
      state: () => update,
      onChange: (listener) => updateChanges.subscribe(listener),
      install: () => installs.push(update.offered ?? 'nothing'),
    },
  });
  const models: TrayModel[] = [];
  tray.onChange((model) => models.push(model));
  return { tray, events, ran, paused, models, setAgents, setUnseen, setUpdate, installs };
}

describe('the tray service', () => {
  it('runs core items by id against its model, and refuses the shell’s own', async () => {
    const { tray, ran, paused, models } = setup();
    const webAgent = agentId('acme', agentKey(web));
    await tray.run(`agent:${webAgent}:restart`);
    expect(ran).toEqual([{ profileId: 'acme', sessionId: web.id, action: 'restart' }]);
    await tray.run('pause:hour');
    expect(paused).toEqual(['hour']);
    await tray.run('profile:globex');
    expect(models.at(-1)?.items[0]).toMatchObject({ label: 'Globex: checking…' });
    await expect(tray.run(`agent:${webAgent}:stop`)).resolves.toMatchObject({
      action: { name: 'session.stop', sessionId: web.id },
    });
    await expect(tray.run('open')).rejects.toMatchObject({ code: 'TRAY_SHELL_ITEM' });
    await expect(tray.run('nothing')).rejects.toMatchObject({ code: 'TRAY_NO_ITEM' });
    await expect(tray.run('profile:globex')).rejects.toMatchObject({ code: 'TRAY_DISABLED' });
    tray.close();
  });

  it('offers "Restart to update" once an update is ready, and installs it only on that click', async () => {
    const { tray, models, setUpdate, installs } = setup();
    setUpdate({ phase: 'downloading', offered: '1.5.0' });
    expect(tray.model().items.map((i) => i.id)).not.toContain('update');
    setUpdate({ phase: 'ready' });
    expect(models.at(-1)?.items).toContainEqual(
      expect.objectContaining({ id: 'update', label: 'Restart to update to 1.5.0' }),
    );
    expect(installs).toEqual([]);
    await tray.run('update');
    expect(installs).toEqual(['1.5.0']);
    tray.close();
  });

  it('asks for attention after agents went offline, until the person looked', () => {
    const { tray, events } = setup();
    events.emit({ kind: 'offline', profileId: 'acme', at: 0, sessions: [web] });
    expect(tray.model().icon.state).toBe('attention');
    expect(tray.model().items).toContainEqual(
      expect.objectContaining({ id: 'unseen', label: '1 agent went offline' }),
    );
    tray.seen();
    expect(tray.model().icon.state).toBe('normal');
    tray.close();
  });

  it('follows the unseen activity: "2 new" while there is some, gone once seen', () => {
    const { tray, models, setUnseen } = setup();
    setUnseen(2);
    expect(models.at(-1)?.items).toContainEqual(
      expect.objectContaining({ id: 'activity', label: '2 new in Activity' }),
    );
    setUnseen(0);
    expect(models.at(-1)?.items.map((i) => i.id)).not.toContain('activity');
    tray.close();
  });

  it('tells its listeners a model only when it differs from the last one', () => {
    const { tray, events, models } = setup();
    tray.seen();
    expect(models).toEqual([]);
    events.emit({ kind: 'offline', profileId: 'acme', at: 0, sessions: [web] });
    tray.seen();
    tray.seen();
    expect(models.map((m) => m.icon.state)).toEqual(['attention', 'normal']);
    expect(models.at(-1)).toBe(tray.model());
    tray.close();
  });

  it("follows the agents' changes: an offline agent of another profile gets its section", () => {
    const { tray, models, setAgents } = setup();
    setAgents({
      profiles: [
        {
          profileId: 'globex',
          agents: [
            {
              id: 'ag_db',
              key: 'db',
              name: 'db',
              state: 'offline',
              session: web,
              lastSeenAt: SEEN,
              updateBlocked: null,
            },
          ],
        },
      ],
    });
    expect(models.at(-1)?.items.map((i) => (i.type === 'separator' ? '---' : i.label))).toEqual(
      expect.arrayContaining([
        'Acme: 0 agents online',
        'No agents',
        '---',
        'Globex: checking…',
        `db · offline · last seen ${clockTime(SEEN, Date.now())}`,
      ]),
    );
    tray.close();
  });
});
