/**
 * The rolling update through Burrow's one composition root (as `burrow --api-url` opens it: the
 * window's contract, a Burrow of the command's own) against the real
 * sandbox and real agent processes: an agent killed with SIGKILL part way, with `skip` and with
 * `stop`; pause, resume and cancel. What the sandbox was asked, and when, is read back from its
 * operation log: the client's calls are noted by the operation id each answer carries (undici's
 * diagnostics channel), and each is looked up under /_sandbox/operations/.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../../../cli/args.ts';
import { untilEnded } from '../../../../cli/fleet.ts';
import { openFleet, type Fleet } from '../../../../cli/fleet-options.ts';
import { quietIo } from '../../../support/quiet-io.ts';
import { startSandbox, type Sandbox } from '../../../../sandbox/index.ts';
import type { RolloutEvent } from '../../../../shared/app/fleet.ts';
import { apiCaller, type ApiReply } from '../../../support/sandbox-client.ts';
import {
  killAgent,
  killAll,
  startAgent,
  until,
  type AgentProcess,
} from '../../../support/agents.ts';

/** The spec's wait between an accepted update and the restart that runs it. */
const SETTLE_MS = 10_000;

type Operation = { method: string; path: string; status: number; at: number };

let sandbox: Sandbox;
let api: (method: string, path: string, body?: unknown) => Promise<ApiReply>;
const fleets: Fleet[] = [];
let token: string;
const operationIds: string[] = [];

function noteOperation(message: unknown): void {
  const { request, response } = message as {
    request: { path: string };
    response: { headers: (Buffer | string)[] };
  };
  if (!request.path.startsWith('/tunnel_sessions')) return;
  const headers = response.headers.map(String);
  for (let i = 0; i < headers.length; i += 2)
    if (headers[i]?.toLowerCase() === 'operation-id') operationIds.push(headers[i + 1] ?? '');
}

beforeAll(async () => {
  subscribe('undici:request:headers', noteOperation);
  sandbox = await startSandbox({ apiKey: 'fleet-rollout', rateLimit: 'off' });
  api = apiCaller(sandbox.url, 'fleet-rollout');
  token = ((await api('POST', '/credentials', {})).body as { token: string }).token;
});

afterAll(async () => {
  unsubscribe('undici:request:headers', noteOperation);
  killAll();
  await Promise.all(fleets.map((fleet) => fleet.close()));
  await sandbox.close();
});

/** `count` linux agents on 3.1.2 named `<prefix>-1`…, each with its session id once online. */
async function agents(prefix: string, count: number): Promise<[AgentProcess, string][]> {
  const started = Array.from({ length: count }, (_, i) =>
    startAgent([
      ...['--api-url', sandbox.url, '--authtoken', token, '--os', 'linux'],
      ...['--version', '3.1.2', '--metadata', JSON.stringify({ host: `${prefix}-${i + 1}` })],
    ]),
  );
  return Promise.all(started.map(async (agent) => [agent, await agent.session(0)] as const));
}

const io = { ...quietIo('/'), env: { BURROW_API_KEY: 'fleet-rollout' } };

/** The agents named `<prefix>-…` in name order, as `burrow rollout --name '<prefix>-*'` selects. */
async function fleetOf(prefix: string): Promise<Fleet> {
  const values = {
    'all-profiles': false,
    state: undefined,
    os: undefined,
    'version-below': undefined,
    name: `${prefix}-*`,
  };
  const fleet = await openFleet({ ...DEFAULT_OPTIONS, apiUrl: sandbox.url }, values, io);
  fleets.push(fleet);
  const selected = [...fleet.selected].sort((a, b) => a.name.localeCompare(b.name));
  return { ...fleet, selected };
}

const refs = (fleet: Fleet) =>
  fleet.selected.map((a) => ({ profileId: a.profileId, agentId: a.id }));

/** The sandbox's record of every call the client made so far, in the order it answered them. */
async function sandboxLog(): Promise<Operation[]> {
  const replies = await Promise.all(
    operationIds.map((id) => api('GET', `/_sandbox/operations/${id}`)),
  );
  return replies
    .map(({ body }) => {
      const op = body as { method: string; path: string; status: number; at: string };
      return { method: op.method, path: op.path, status: op.status, at: Date.parse(op.at) };
    })
    .sort((a, b) => a.at - b.at);
}

/** The calls made on one session: "POST update 204"… */
const callsOn = (log: Operation[], sessionId: string) =>
  log.filter((op) => op.path.startsWith(`/tunnel_sessions/${sessionId}`));
const callLine = (op: Operation) => `${op.method} ${op.path.split('/')[3] ?? '(get)'} ${op.status}`;

/** Updated, restarted at least 10 s after the update's answer, and nothing else. */
function expectUpdateWaitRestart(log: Operation[], sessionId: string): Operation[] {
  const calls = callsOn(log, sessionId);
  expect(calls.map(callLine)).toEqual(['POST update 204', 'POST restart 204']);
  const [update, restart] = calls as [Operation, Operation];
  expect(restart.at - update.at).toBeGreaterThanOrEqual(SETTLE_MS);
  return calls;
}

/**
 * A rolling update (batch 1) over `<prefix>-1…3`, the agent `killed` (its index) SIGKILLed once
 * `<prefix>-1` is updated, while that batch waits its 10 s; the ended rollout and the sessions.
 */
async function rolloutKilling(prefix: string, killed: number, onFailure: 'skip' | 'stop') {
  const started = await agents(prefix, 3);
  const fleet = await fleetOf(prefix);
  fleet.door.on('rollout.step', (event) => {
    if (event.event === 'updated' && event.agent === `${prefix}-1`) killAgent(started[killed]![0]);
  });
  const rollout = { agents: refs(fleet), options: { batch: 1, onFailure } };
  const ended = await untilEnded(fleet.door, await fleet.door.call('rollout.start', rollout), io);
  return { ended, sessions: started.map(([, session]) => session) };
}

describe('the rolling update with real agents', () => {
  it('skip: an agent killed before its batch is named failed with the reason; the rollout goes on', async () => {
    const { ended, sessions } = await rolloutKilling('skip', 1, 'skip');
    const [first = '', , third = ''] = sessions;

    expect(ended.state).toBe('done');
    expect(ended.agents.map((a) => [a.name, a.state])).toEqual([
      ['skip-1', 'done'],
      ['skip-2', 'failed'],
      ['skip-3', 'done'],
    ]);
    expect(ended.agents[1]?.reason).toMatch(/^[A-Z][a-z]+ .*\w/);
    expect(ended.agents[2]?.versionAfter).toBe('3.3.0');
    const log = await sandboxLog();
    const [, firstRestart] = expectUpdateWaitRestart(log, first);
    const [thirdUpdate] = expectUpdateWaitRestart(log, third);
    // Rolling: the third agent's batch starts once the first one's is over.
    expect(thirdUpdate?.at).toBeGreaterThan(firstRestart?.at ?? Infinity);
  }, 180_000);

  it('stop: an agent killed while it waits its 10 s stops the rollout there', async () => {
    const { ended, sessions } = await rolloutKilling('stop', 0, 'stop');
    const [first = '', second = '', third = ''] = sessions;

    expect(ended.state).toBe('stopped');
    expect(ended.line).toBe('Rolling update stopped by a failure: 1 failed, 2 not started');
    expect(ended.agents.map((a) => a.state)).toEqual(['failed', 'not-started', 'not-started']);
    expect(ended.agents[0]?.reason).toMatch(/^[A-Z][a-z]+ .*\w/);
    const log = await sandboxLog();
    expect(callsOn(log, first).map(callLine)[0]).toBe('POST update 204');
    expect(callsOn(log, second)).toEqual([]);
    expect(callsOn(log, third)).toEqual([]);
  }, 180_000);

  it('pause lets the running batch finish and holds the next until resume; cancel ends the rest with no further call', async () => {
    const started = await agents('pause', 6);
    const sessions = started.map(([, session]) => session);
    const fleet = await fleetOf('pause');
    const events: RolloutEvent[] = [];
    const { door } = fleet;
    door.on('rollout.step', (event) => events.push(event));
    const seen = (event: RolloutEvent['event'], names: string[]) =>
      events.filter((e) => e.event === event && names.includes(e.agent)).length;
    const rollout = await door.call('rollout.start', {
      agents: refs(fleet),
      options: { batch: 2 },
    });
    const { id } = rollout;

    await until(() => seen('updated', ['pause-1', 'pause-2']) > 0, 60_000);
    expect((await door.call('rollout.pause', id)).state).toBe('paused');
    await until(() => seen('done', ['pause-1', 'pause-2']) === 2, 90_000);
    // The next batch is held: nothing asked of its agents while paused.
    await sleep(1_500);
    expect((await door.call('rollout.state'))?.line).toBe('Rolling update paused: 2 of 6');
    const held = await sandboxLog();
    for (const session of sessions.slice(2)) expect(callsOn(held, session)).toEqual([]);

    const resumedAt = Date.now();
    await door.call('rollout.resume', id);
    await until(() => seen('updated', ['pause-3', 'pause-4']) > 0, 60_000);
    const ending = untilEnded(door, rollout, io);
    await door.call('rollout.cancel', id);
    const ended = await ending;
    const endedAt = Date.now();

    expect(ended.state).toBe('cancelled');
    // Those under way when cancelled say how far they got; the others were never reached.
    expect(ended.agents.map((a) => a.state)).toEqual([
      ...['done', 'done'],
      ...['cancelled', 'cancelled', 'not-started', 'not-started'],
    ]);
    expect(ended.line).toBe('Rolling update cancelled: 2 updated, 2 cancelled, 2 not started');
    await sleep(1_000);
    const log = await sandboxLog();
    // Nothing more asked of any agent (the monitor of the command's Burrow still lists them).
    const onAgents = log.filter((op) => /^\/tunnel_sessions\/\w/.test(op.path));
    expect(onAgents.filter((op) => op.at > endedAt)).toEqual([]);
    for (const session of sessions.slice(0, 2)) expectUpdateWaitRestart(log, session);
    for (const session of sessions.slice(2, 4)) {
      const calls = callsOn(log, session);
      expect(calls.map(callLine)).not.toContain('POST restart 204');
      for (const call of calls) expect(call.at).toBeGreaterThanOrEqual(resumedAt);
    }
    for (const session of sessions.slice(4)) expect(callsOn(log, session)).toEqual([]);
  }, 180_000);
});
