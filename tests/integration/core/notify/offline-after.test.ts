import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Timer } from '../../../../shared/node/clock.ts';
import { startSandbox, type Sandbox } from '../../../../sandbox/index.ts';
import type { ActivityList } from '../../../../shared/app/activity.ts';
import type { IpcEvent } from '../../../../shared/app/ipc/contract.ts';
import { AlertRules } from '../../../../shared/app/ipc/settings.ts';
import type { Notification } from '../../../../shared/app/notifications.ts';
import { killAll, startAgent } from '../../../support/agents.ts';
import { apiCaller } from '../../../support/sandbox-client.ts';
import { noSecretService } from '../../../support/secret-service.ts';
import { callerOf, startApp } from '../profiles/support.ts';

/*
 * The offline-after and back-online rules in the whole core: a real agent process on the real
 * sandbox, killed and started again, the app polling it; only the rules' wall clock is the
 * test's, so that a minute's wait is a step.
 */

const KEY = 'alert-rules-key-7f3a';
const MINUTE = 60_000;
let sandbox: Sandbox;
let token = '';

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, rateLimit: 'off' });
  token = (await apiCaller(sandbox.url, KEY)('POST', '/credentials', {})).body.token;
});

afterAll(async () => {
  killAll();
  await sandbox?.close();
});

/** Real time, plus whatever the test moved it on; its timers run when it moves past them. */
function steppedClock() {
  let ahead = 0;
  let timers: { at: number; run: () => void }[] = [];
  const now = () => Date.now() + ahead;
  return {
    now,
    setTimer(run: () => void, ms: number): Timer {
      const timer = { at: now() + ms, run };
      timers.push(timer);
      return { cancel: () => void (timers = timers.filter((t) => t !== timer)) };
    },
    step(ms: number) {
      ahead += ms;
      const due = timers.filter((t) => t.at <= now());
      timers = timers.filter((t) => t.at > now());
      for (const timer of due) timer.run();
    },
  };
}

const notices = (events: IpcEvent[]): Notification[] =>
  events.flatMap((e) => (e.name === 'notification' ? [e.payload] : []));

it('holds an offline for its minutes, then tells it, and tells its return', async (ctx) => {
  ctx.skip(noSecretService !== undefined, noSecretService);
  const clock = steppedClock();
  const { burrow, events } = await startApp({ pollIntervalMs: 200, alertClock: clock });
  const call = callerOf(burrow);
  const { id } = (await call('profiles.add', {
    name: 'Agents',
    baseUrl: sandbox.url,
    apiKey: KEY,
  })) as { id: string };
  await call('settings.update', {
    alerts: { [id]: AlertRules.parse({ offlineAfterMinutes: 1 }) },
  });
  const agentArgs = ['--api-url', sandbox.url, '--authtoken', token, '--metadata', 'rule-box'];
  const listed = () =>
    burrow.watched.snapshot().profiles.find((p) => p.profileId === id)?.sessions.length ?? 0;

  await startAgent(agentArgs).session(0);
  await expect.poll(listed, { timeout: 15_000 }).toBe(1);
  killAll();

  // Gone: recorded as held by the rule, and no notice yet.
  const held = async () =>
    ((await call('activity.list', { profileId: id, kind: 'notice' })) as ActivityList).entries;
  await expect.poll(held, { timeout: 15_000 }).toMatchObject([{ held: 'rule' }]);
  expect(notices(events)).toEqual([]);

  clock.step(MINUTE + 1000);
  expect(notices(events)).toMatchObject([
    { kind: 'offline', title: expect.stringMatching(/rule-box/) },
  ]);

  await startAgent(agentArgs).session(0);
  await expect
    .poll(() => notices(events).map((n) => n.kind), { timeout: 15_000 })
    .toEqual(['offline', 'backOnline']);
  expect(notices(events)[1]?.title).toMatch(/rule-box/);
}, 60_000);
