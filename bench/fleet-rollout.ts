/**
 * `npm run bench:fleet [-- --quick]`: the fleet service against the real sandbox and agents.
 * A rolling update at batch 1 and at batch 5, each against its physical minimum (per batch: the
 * 10 s settle plus the agents' own restart time, measured first in the same run), and a stop of
 * many agents against the minimum the rate limit allows; every 429 counted. Prints ratios. Then
 * the window and the command line at once (fleet-doors.ts).
 */
import { createApiClient } from '../core/api/client.ts';
import { UPDATE_SETTLE_MS } from '../core/sessions/actions.ts';
import { FleetService } from '../core/fleet/service.ts';
import { SessionsService } from '../core/sessions/service.ts';
import type { TunnelSession } from '../shared/api/kinds/tunnel-sessions.ts';
import { agentId, type Agent } from '../shared/app/agents.ts';
import { agentDisplayName, agentKey } from '../shared/app/monitor.ts';
import { startSandbox } from '../sandbox/index.ts';
import { agentToken, startAgent } from './fleet.ts';

/** A listed session as an agent of the fleet: online now, nothing known of its past. */
function sessionAgent(profileId: string, session: TunnelSession, now: number): Agent {
  const key = agentKey(session);
  return {
    id: agentId(profileId, key),
    profileId,
    key,
    name: agentDisplayName(session),
    state: 'online',
    since: now,
    session,
    lastSeenAt: now,
    note: null,
    updateBlocked: null,
    step: null,
    history: { bands: [], marks: [] },
  };
}

const QUICK = process.argv.includes('--quick');
const KEY = 'bench-fleet';
const LIMIT = { requests: 20, windowMs: 2_000 };
const ROLLING = QUICK ? 3 : 20;
const STOPPING = QUICK ? 30 : 100;

async function fleetOf(size: number) {
  const sandbox = await startSandbox({
    apiKey: KEY,
    rateLimit: { requests: LIMIT.requests, windowSeconds: LIMIT.windowMs / 1000 },
  });
  const token = await agentToken(sandbox.url, KEY);
  const agents = Array.from({ length: size }, (_, i) =>
    startAgent({ url: sandbox.agentUrl, authtoken: token, metadata: `bench agent ${i}` }),
  );
  await Promise.all(agents.map((agent) => agent.online(60_000)));
  // The credential's call counts in the sandbox's window, not in this client's governor.
  await new Promise((resolve) => setTimeout(resolve, LIMIT.windowMs));
  let refused = 0;
  const client = createApiClient({
    baseUrl: sandbox.url,
    apiKey: KEY,
    rateLimit: LIMIT,
    onEvent: (event) => {
      if (event.type === 'rate-limited') refused++;
    },
  });
  const listed = await client.tunnelSessions.listAll();
  const fleet = listed.map((s) => sessionAgent('bench', s, Date.now()));
  const sessions = new SessionsService({
    watched: {
      findSession: (_p, id) => listed.find((s) => s.id === id),
      expect: () => undefined,
      pollNow: () => Promise.resolve(),
    },
    client: () => Promise.resolve({ client }),
    settings: { get: () => ({ mutedAgents: [] }), update: (patch) => patch },
  });
  const service = new FleetService({
    agents: () => fleet,
    profileName: () => 'bench',
    run: (request, options) => sessions.run(request, options),
    listSessions: (_p, signal) => client.tunnelSessions.listAll({ signal }),
    parallel: LIMIT.requests,
  });
  const refs = fleet.map((a) => ({ profileId: a.profileId, agentId: a.id }));
  const close = async () => {
    sessions.close();
    await Promise.all(agents.map((a) => a.stop()));
    await client.close();
    await sandbox.close();
  };
  return { service, refs, agents, close, refused: () => refused };
}

async function rolling(size: number, batch: number, restartMs: number) {
  const f = await fleetOf(size);
  const start = performance.now();
  const { id } = f.service.startRollout({ agents: f.refs, options: { batch } });
  const ended = await f.service.rolloutEnded(id);
  const ms = performance.now() - start;
  await f.close();
  const minimum = Math.ceil(size / batch) * (UPDATE_SETTLE_MS + restartMs);
  const done = ended.agents.filter((a) => a.state === 'done').length;
  console.log(
    `rollout ${size} at batch ${batch}: ${(ms / 1000).toFixed(1)} s, minimum ${(minimum / 1000).toFixed(1)} s, ratio ${(ms / minimum).toFixed(3)} (≤ 1.10), ${done}/${size} done, 429s ${f.refused()}`,
  );
}

/** One agent's own restart: from the restart's 204 to its new session online. */
async function restartTime(): Promise<number> {
  const f = await fleetOf(1);
  const agent = f.agents[0];
  const start = performance.now();
  const online = agent?.online(30_000);
  await f.service.run({ action: 'restart', agents: f.refs });
  await online;
  const ms = performance.now() - start;
  await f.close();
  return ms;
}

const restartMs = await restartTime();
console.log(`an agent's own restart: ${restartMs.toFixed(0)} ms`);
await rolling(ROLLING, 1, restartMs);
await rolling(QUICK ? 5 : ROLLING, 5, restartMs);

const f = await fleetOf(STOPPING);
const start = performance.now();
const result = await f.service.run({ action: 'stop', agents: f.refs });
const ms = performance.now() - start;
// The first window's calls go at once; each further window's after it.
const minimum = Math.floor((STOPPING - 1) / LIMIT.requests) * LIMIT.windowMs;
await f.close();
console.log(
  `stop ${STOPPING} at ${LIMIT.requests} per ${LIMIT.windowMs} ms: ${(ms / 1000).toFixed(2)} s, minimum ${(minimum / 1000).toFixed(2)} s, ratio ${(ms / minimum).toFixed(3)} (≤ 1.05), ${result.summary}, 429s ${f.refused()}`,
);

// The window and the command line at once (bench/fleet-doors.ts).
await import('./fleet-doors.ts');
