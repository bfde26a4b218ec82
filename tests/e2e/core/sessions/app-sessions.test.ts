/**
 * Sessions through the contract on the real core (conf, keychain, the embedded Local sandbox)
 * with real agent processes. Polls are driven with pollNow() so each assertion is about what a
 * poll saw; the monitor's own timers may poll too, which changes nothing asserted here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dispatchIpc } from '../../../../core/ipc/dispatch.ts';
import type { IpcEvent } from '../../../../shared/app/ipc/contract.ts';
import { startSandbox } from '../../../../sandbox/index.ts';
import { isAlive, killAll, killUntilSeen, startAgent, until } from '../../../support/agents.ts';
import { callerOf, startApp } from '../../../integration/core/profiles/support.ts';

afterAll(() => killAll());

describe('sessions through the contract with real agents', () => {
  it('sees an agent after one poll, tells one offline after kill -9, stops and restarts', async () => {
    const { burrow, events } = await startApp();
    const call = callerOf(burrow);
    const monitor = burrow.watched.monitor;
    const profileId = burrow.profiles.activeProfile()?.id ?? '';
    await until(() => (monitor.snapshot().profiles[0]?.polls ?? 0) >= 1, 30_000);
    const url = burrow.profiles.state().profiles[0]?.baseUrl ?? '';
    const { token } = await call('api.credentials.create', { body: {} });
    // Each its own agent: same credential and address, so the metadata tells them apart.
    const agent = (name: string) =>
      startAgent(['--api-url', url, '--authtoken', token, '--os', 'linux', '--metadata', name]);
    const of = (kind: string) =>
      events.filter(
        (e): e is Extract<IpcEvent, { name: 'monitor.event' }> =>
          e.name === 'monitor.event' && e.payload.kind === kind,
      );
    const listed = async () =>
      (
        (await call('sessions.snapshot', profileId)) as {
          profiles: { sessions: { id: string }[] }[];
        }
      ).profiles[0]?.sessions.map((s) => s.id) ?? [];
    /** A new agent, and the id of its session once a poll has been made after it connected. */
    const polled = async (name: string) => {
      const started = agent(name);
      const id = await started.session(0);
      await monitor.pollNow();
      return [started, id] as const;
    };
    const run = (sessionId: string, action: 'stop' | 'restart') =>
      call('sessions.run', { profileId, sessionId, action });

    // Appears after one poll.
    const [killed, killedId] = await polled('killed');
    expect(await listed()).toContain(killedId);
    expect(of('online').map((e) => e.payload)).toMatchObject([{ session: { id: killedId } }]);

    // kill -9: gone from the list, then one offline event and one offline notification.
    await killUntilSeen(killed, monitor, () => of('offline').length > 0);
    await monitor.pollNow();
    expect(of('offline')).toHaveLength(1);
    const notes = events.filter((e) => e.name === 'notification').map((e) => e.payload);
    expect(notes).toMatchObject([{ kind: 'offline' }]);

    // Stop through the contract ends the agent's process.
    const [stopped, stoppedId] = await polled('stopped');
    expect(await run(stoppedId, 'stop')).toMatchObject({ ok: true });
    await stopped.exit;
    expect(isAlive(stopped.pids[0] ?? 0)).toBe(false);

    // Restart reports restarted, never offline.
    const [restarted, firstId] = await polled('restarted');
    expect(await run(firstId, 'restart')).toMatchObject({ ok: true });
    await restarted.session(1, 20_000);
    await until(async () => {
      await monitor.pollNow();
      return of('restarted').length > 0;
    }, 20_000);
    expect(of('restarted').map((e) => e.payload)).toMatchObject([{ previous: { id: firstId } }]);
    expect(of('offline')).toHaveLength(1);
    const progress = events.filter((e) => e.name === 'sessions.action').map((e) => e.payload.phase);
    expect(progress).toContain('done');
    const tray = (await call('tray.model')) as { title: string };
    // The Local sandbox has demo agents of its own: the count is whatever the monitor lists.
    expect(tray.title).toBe(String((await listed()).length));
  }, 90_000);
});

describe('a profile that cannot be polled', () => {
  it('says why in the snapshot and the tray until its key is entered again', async () => {
    const key = 'remote-key-for-a-missing-entry';
    const remote = await startSandbox({ apiKey: key, rateLimit: 'off' });
    try {
      const first = await startApp();
      const added = await dispatchIpc(first.burrow.implementation, 'profiles.add', [
        { name: 'Remote', baseUrl: remote.url, apiKey: key },
      ]);
      if (!added.ok) throw new Error(JSON.stringify(added.error));
      const profileId = (added.value as { id: string }).id;
      await first.burrow.close();
      // The entry is gone from the keychain (removed by hand, another machine's data folder…).
      await first.secrets.delete(profileId);

      const { burrow } = await startApp({ dataDir: first.dataDir, secrets: first.secrets });
      const remoteSnapshot = () =>
        burrow.watched.snapshot().profiles.find((p) => p.profileId === profileId);
      await until(() => remoteSnapshot()?.health === 'unavailable', 10_000);
      expect(remoteSnapshot()?.healthReason).toMatch(/not in the keychain.*Settings/);
      burrow.profiles.switch(profileId);
      await until(() => burrow.tray.model().icon.state === 'error', 10_000);
      expect(burrow.tray.model().items).toContainEqual(
        expect.objectContaining({
          label: expect.stringMatching(/^Not monitored: .*not in the keychain/),
          action: { name: 'app.open', by: 'shell', screen: 'settings', profileId },
        }),
      );

      const changed = await dispatchIpc(burrow.implementation, 'profiles.changeKey', [
        profileId,
        key,
      ]);
      expect(changed).toMatchObject({ ok: true });
      await until(() => remoteSnapshot()?.health === 'ok', 20_000);
    } finally {
      await remote.close();
    }
  }, 60_000);
});
