/**
 * The tray on the real core (conf, keychain, the embedded Local sandbox) with real agent
 * processes: an agent killed -9 stays in the tray as offline, first in its profile's section,
 * its notification names it and opens the very agent the tray lists; Stop is a core item that
 * asks first. The poll interval is an hour: polls happen when the test asks.
 */
import { afterAll, expect, it } from 'vitest';
import type { AgentsSnapshot } from '../../../../shared/app/agents.ts';
import type { Notification } from '../../../../shared/app/notifications.ts';
import { findTrayItem, type TrayModel } from '../../../../shared/app/tray.ts';
import { killAll, killUntilSeen, startAgent, until } from '../../../support/agents.ts';
import { callerOf, startApp } from '../../../integration/core/profiles/support.ts';

afterAll(() => killAll());

const HOUR = 3_600_000;

const find = findTrayItem;

it('lists an offline agent first in its section, named as its notification names it; Stop asks', async () => {
  const { burrow, events } = await startApp({ pollIntervalMs: HOUR });
  const call = callerOf(burrow);
  const monitor = burrow.watched.monitor;
  await until(() => (monitor.snapshot().profiles[0]?.polls ?? 0) >= 1, 30_000);
  // Its address once the Local sandbox has started.
  const profile = burrow.profiles.state().profiles[0];
  const { token } = await call('api.credentials.create', { body: {} });
  const agent = (name: string) =>
    startAgent([
      '--api-url',
      profile?.baseUrl ?? '',
      '--authtoken',
      token,
      '--os',
      'linux',
      '--metadata',
      name,
    ]);
  const agentNamed = async (name: string) =>
    ((await call('agents.snapshot', profile?.id)) as AgentsSnapshot).profiles[0]?.agents.find(
      (a) => a.name === name,
    );

  const killed = agent('tray-killed');
  const kept = agent('tray-kept');
  await Promise.all([killed.session(0), kept.session(0)]);
  await monitor.pollNow();
  await killUntilSeen(
    killed,
    monitor,
    async () => (await agentNamed('tray-killed'))?.state === 'offline',
  );
  const gone = await agentNamed('tray-killed');

  const tray = (await call('tray.model')) as TrayModel;
  const section = tray.items.filter((i) => i.type === 'submenu' && i.id.startsWith('agent:'));
  expect(section[0]).toMatchObject({
    id: `agent:${gone?.id}`,
    label: expect.stringMatching(/^tray-killed · offline · last seen \d{1,2}:\d\d(\s[AP]M)?$/),
  });
  expect(find(tray.items, `section:${profile?.id}:headline`)).toMatchObject({
    label: expect.stringMatching(/^Local sandbox: \d+ agents online, 1 offline$/),
  });

  // One profile: its name is not in the notification, which opens the agent the tray lists.
  const told = events
    .filter((e) => e.name === 'notification')
    .map((e) => e.payload as Notification)
    .find((n) => n.title === 'tray-killed went offline');
  expect(told).toMatchObject({
    body: expect.stringMatching(/^Gone at \d{1,2}:\d\d(\s[AP]M)?\. linux · /),
    target: { type: 'agent', profileId: profile?.id, agentId: gone?.id },
    actions: ['open', 'mute'],
  });

  const keptAgent = await agentNamed('tray-kept');
  const stop = find(tray.items, `agent:${keptAgent?.id}:stop`);
  expect(stop).toMatchObject({
    enabled: true,
    confirm: {
      title: 'Stop this agent?',
      message: expect.stringMatching(/^tray-kept \(Local sandbox, on /),
    },
  });
  expect(await call('tray.run', stop?.id)).toMatchObject({ result: { ok: true } });
  expect(await kept.exit).toMatchObject({ code: expect.any(Number) });
  await burrow.close();
}, 90_000);
