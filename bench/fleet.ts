/** What the monitor benches share: a credential for the sandbox's agents, the agents, a wait. */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type AgentConfig } from '../sandbox/agent/agent.ts';

/** A new credential's authtoken, created through the sandbox's API with `key`. */
export async function agentToken(apiUrl: string, key: string): Promise<string> {
  const created = await fetch(`${apiUrl}/credentials`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'service-version': '2',
      'content-type': 'application/json',
    },
    body: '{}',
  });
  return ((await created.json()) as { token: string }).token;
}

/** A started linux agent of the library, named by its metadata. */
export function startAgent(
  options: Pick<AgentConfig, 'url' | 'authtoken' | 'metadata' | 'backoff'>,
): Agent {
  return new Agent({ version: '3.1.2', os: 'linux', ...options }).start();
}

/** Resolves once `check` holds, polling every 5 ms; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`bench: no ${what} within ${timeoutMs} ms`);
    await sleep(5);
  }
}
