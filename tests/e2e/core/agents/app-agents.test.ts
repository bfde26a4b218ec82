/**
 * Agents through the contract on the real core (conf, keychain, the embedded Local sandbox) with
 * real agent processes: an offline agent and its day outlive a restart of Burrow, and our own
 * command shows without waiting for the next poll (the poll interval here is an hour).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS_FILE } from '../../../../core/agents/store.ts';
import { dispatchIpc } from '../../../../core/ipc/dispatch.ts';
import type { AgentsSnapshot } from '../../../../shared/app/agents.ts';
import { killAll, killUntilSeen, startAgent, until } from '../../../support/agents.ts';
import { callerOf as caller, startApp } from '../../../integration/core/profiles/support.ts';

afterAll(() => killAll());

const HOUR = 3_600_000;

describe('agents through the contract', () => {
  it('keeps an offline agent and its day across a restart of Burrow; a stop shows at once', async () => {
    const first = await startApp({ pollIntervalMs: HOUR });
    const call = caller(first.burrow);
    const monitor = first.burrow.watched.monitor;
    const profileId = first.burrow.profiles.activeProfile()?.id ?? '';
    await until(() => (monitor.snapshot().profiles[0]?.polls ?? 0) >= 1, 30_000);
    const url = first.burrow.profiles.state().profiles[0]?.baseUrl ?? '';
    const { token } = await call('api.credentials.create', { body: {} });
    const agent = (name: string, at = url) =>
      startAgent(['--api-url', at, '--authtoken', token, '--os', 'linux', '--metadata', name]);
    const named = async (name: string, b = first.burrow) =>
      ((await caller(b)('agents.snapshot', profileId)) as AgentsSnapshot).profiles[0]?.agents.find(
        (a) => a.name === name,
      );

    const killed = agent('killed');
    await killed.session(0);
    await monitor.pollNow();
    expect(await named('killed')).toMatchObject({ state: 'online' });
    await killUntilSeen(killed, monitor, async () => (await named('killed'))?.state === 'offline');
    const offline = await named('killed');
    expect(first.events.some((e) => e.name === 'agents.changed')).toBe(true);
    await first.burrow.close();
    expect(await readFile(path.join(first.dataDir, AGENTS_FILE), 'utf8')).toContain(
      offline?.id ?? '-',
    );

    const second = await startApp({
      pollIntervalMs: HOUR,
      dataDir: first.dataDir,
      secrets: first.secrets,
    });
    // Before any poll, and after the quiet first one: as it was.
    expect(await named('killed', second.burrow)).toEqual(offline);
    const again = second.burrow.watched.monitor;
    await until(() => (again.snapshot().profiles[0]?.polls ?? 0) >= 1, 30_000);
    await again.pollNow();
    expect(await named('killed', second.burrow)).toMatchObject({
      state: 'offline',
      since: offline?.since,
      lastSeenAt: offline?.lastSeenAt,
      history: offline?.history,
    });

    // A stop through the contract: stopping at once, stopped at the poll that follows the 204.
    // The Local sandbox started again, perhaps on another port; its data (the credential) kept.
    const stopped = agent('stop me', second.burrow.profiles.state().profiles[0]?.baseUrl);
    const stoppedId = await stopped.session(0);
    await again.pollNow();
    const run = caller(second.burrow)('sessions.run', {
      profileId,
      sessionId: stoppedId,
      action: 'stop',
    });
    expect(await run).toMatchObject({ ok: true });
    // Told stopping before the command's answer came back.
    const stopping = second.events.findIndex(
      (e) =>
        e.name === 'agents.changed' &&
        e.payload.profiles[0]?.agents.some((a) => a.name === 'stop me' && a.state === 'stopping'),
    );
    const answered = second.events.findIndex(
      (e) => e.name === 'sessions.action' && e.payload.phase === 'done',
    );
    expect(stopping).toBeGreaterThan(-1);
    expect(stopping).toBeLessThan(answered);
    await until(async () => (await named('stop me', second.burrow))?.state === 'stopped', 10_000);

    // Dismissed, and gone for good.
    await caller(second.burrow)('agents.dismiss', profileId, offline?.id);
    expect(await named('killed', second.burrow)).toBeUndefined();
    const refused = await dispatchIpc(second.burrow.implementation, 'agents.dismiss', [
      profileId,
      'ag_unknown',
    ]);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'AGENTS_NO_AGENT', field: 'agentId' },
    });
  }, 90_000);
});
