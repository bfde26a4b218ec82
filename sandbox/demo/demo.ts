import { Agent, type AgentConfig } from '../agent/agent.ts';
import type { Services } from '../resources/context.ts';
import { DEMO_DOMAIN, seedDemo } from './seed.ts';

type DemoAgent = Omit<AgentConfig, 'url' | 'authtoken'>;

/**
 * Three agents that show what the commands do: one can be updated (3.1.2 → 3.3.0), one runs
 * Windows (restart refused) and is at the newest 3.x, one has update checks off.
 */
const DEMO_AGENTS: readonly DemoAgent[] = [
  {
    version: '3.1.2',
    os: 'linux',
    region: 'us',
    metadata: '{"host":"build-box"}',
    binds: [`app.${DEMO_DOMAIN}`],
  },
  {
    version: '3.3.0',
    os: 'windows',
    region: 'eu',
    metadata: '{"host":"office-pc"}',
    binds: [`tls.${DEMO_DOMAIN}`],
  },
  {
    version: '2.9.3',
    os: 'darwin',
    region: 'ap',
    metadata: '{"host":"laptop"}',
    updateChecks: false,
  },
];

export type Demo = {
  readonly agents: readonly Agent[];
  close(): Promise<void>;
};

/**
 * Seeds the first account and connects the demo agents, in this process, to the sandbox's own
 * agent endpoint. They obey commands like any agent (a restart reconnects in-process with a new
 * session; a stopped one stays stopped) and are stopped when the sandbox closes.
 */
export async function startDemo(services: Services, agentUrl: string): Promise<Demo> {
  const authtoken = await seedDemo(services);
  const agents = DEMO_AGENTS.map((config) =>
    new Agent({ ...config, url: agentUrl, authtoken }).start(),
  );
  const stopAll = () => Promise.all(agents.map((agent) => agent.stop())).then(() => undefined);
  try {
    await Promise.all(agents.map((agent) => agent.online()));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { agents, close: stopAll };
}
