// Its own file so that its ten-second wait runs beside the other agent tests.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type Sandbox } from '../../../sandbox/index.ts';
import { apiCaller, type ApiReply } from '../../support/sandbox-client.ts';
import { isError, killAll, startAgent, until } from '../../support/agents.ts';
import { expectError } from '../../integration/sandbox/support.ts';

let sandbox: Sandbox;
let api: (method: string, path: string, body?: unknown) => Promise<ApiReply>;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'update-key', rateLimit: 'off' });
  api = apiCaller(sandbox.url, 'update-key');
});

afterAll(async () => {
  killAll();
  await sandbox.close();
});

const update = (id: string) => api('POST', `/tunnel_sessions/${id}/update`, {});
const restart = (id: string) => api('POST', `/tunnel_sessions/${id}/restart`, {});
const versionOf = async (id: string) =>
  (await api('GET', `/tunnel_sessions/${id}`)).body.agent_version;

/** Updates the agent; returns when its 204 arrived. */
async function updated(id: string): Promise<number> {
  expect(await update(id)).toMatchObject({ status: 204 });
  const answeredAt = performance.now();
  expectError(await update(id), 'alreadyUpdating');
  return answeredAt;
}

it('updates within the major, and a restart 10 s after the update’s 204 runs it', async () => {
  const token = (await api('POST', '/credentials', {})).body.token;
  const agent = startAgent(['--api-url', sandbox.url, '--authtoken', token, '--version', '3.1.2']);
  const first = await agent.session(0);

  // A restart once the download is done, but before the 10 s, runs the old version and drops
  // the pending update.
  await updated(first);
  await until(async () => isError(await update(first), 'updatedAwaitingRestart'), 10_000);
  expect(await restart(first)).toMatchObject({ status: 204 });
  const second = await agent.session(1);
  expect(await versionOf(second)).toBe('3.1.2');

  // The spec's caller: wait exactly 10 s from the update's answer, then restart.
  const updatedAt = await updated(second);
  await sleep(10_000 - (performance.now() - updatedAt));
  expect(await restart(second)).toMatchObject({ status: 204 });
  const third = await agent.session(2);
  expect(await versionOf(third)).toBe('3.3.0');
  // 3.3.0 is the newest 3.x: the next major (4.0.1) is never an update.
  expectError(await update(third), 'noUpdateAvailable');
  expect(await api('POST', `/tunnel_sessions/${third}/stop`, {})).toMatchObject({ status: 204 });
});
