import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../sandbox/agent/agent.ts';
import type { RolloutEvent } from '../../../shared/app/fleet.ts';
import { apiCaller } from '../../support/sandbox-client.ts';
import { startSandbox, type Sandbox } from '../core/api/support.ts';
import { burrow } from './support.ts';

/*
 * `burrow rollout` and the bulk actions against the real sandbox and real agents: the rolling
 * update's order and its 10 s, Windows agents updated only, a failed agent skipped; the bulk
 * impact's sentence. The agents update together (one batch), so the test waits 10 s once.
 */

let sandbox: Sandbox;
const agents: Agent[] = [];

const run = (...argv: string[]) =>
  burrow([...argv, '--api-url', sandbox.url], { env: { BURROW_API_KEY: sandbox.apiKey } });

async function agentNamed(
  host: string,
  os: 'linux' | 'darwin' | 'windows',
  updateChecks = true,
): Promise<Agent> {
  const { token } = (await apiCaller(sandbox.url, sandbox.apiKey ?? '')('POST', '/credentials', {}))
    .body as { token: string };
  const agent = new Agent({
    url: sandbox.agentUrl,
    authtoken: token,
    version: '3.1.2',
    os,
    updateChecks,
    metadata: JSON.stringify({ host }),
  }).start();
  agents.push(agent);
  return agent;
}

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: 'cli-rollout', rateLimit: 'off' });
  await Promise.all([
    agentNamed('r-linux', 'linux'),
    agentNamed('r-mac', 'darwin'),
    agentNamed('r-win', 'windows'),
    agentNamed('r-pinned', 'linux', false),
  ]);
  // Online once each has said so: the agents' own hook, before any command runs.
  await Promise.all(agents.map((agent) => agent.online()));
});

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await sandbox.close();
});

describe('burrow agents, rollout and the bulk actions', () => {
  it('lists the selection as a table', async () => {
    const result = await run('agents', '--os', 'windows');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^PROFILE\s+NAME\s+STATE\s+OS\s+VERSION\s+REGION\s+LAST SEEN\n/);
    expect(result.stdout).toMatch(/r-win\s+online\s+windows\s+3\.1\.2/);
    expect(result.stdout).not.toMatch(/r-linux/);
  });

  it('says the bulk impact and refuses an empty selection', async () => {
    const impact = await run('restart', '--name', 'r-win', '--yes');
    expect(impact.code).toBe(1);
    expect(impact.stderr).toMatch(
      /No agent can be restarted; 1 runs on Windows and cannot be restarted remotely: it is left out\./,
    );
    const none = await run('stop', '--name', 'nobody-*', '--yes');
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toMatch(/No agent matches the selection/);
    const both = await run('restart', 'r-linux', '--os', 'linux');
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/give AGENT or selection options, not both/);
  });

  it('updates, waits 10 s, restarts and sees each agent online; Windows updated only; a failure skipped (exit 3)', async () => {
    const result = await run(
      'rollout',
      '--name',
      'r-*',
      '--batch',
      '4',
      '--on-failure',
      'skip',
      '--yes',
      '--json',
    );
    const events = result.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as RolloutEvent);
    const of = (agent: string) => events.filter((e) => e.agent === agent);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/failed: r-pinned .*update checks off/);
    for (const name of ['r-linux', 'r-mac']) {
      const steps = of(name);
      expect(steps.map((e) => e.event)).toEqual(['updated', 'restarting', 'online', 'done']);
      const [updated, restarting] = steps.map((e) => Date.parse(e.at));
      expect((restarting ?? 0) - (updated ?? 0)).toBeGreaterThanOrEqual(10_000);
      expect(steps[2]?.version).not.toBe('3.1.2');
    }
    expect(of('r-win').map((e) => e.event)).toEqual(['updated', 'done']);
    expect(of('r-win')[1]?.reason).toMatch(/restart it yourself/);
    expect(of('r-pinned').map((e) => e.event)).toEqual(['failed']);
  }, 60_000);
});
