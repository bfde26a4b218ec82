import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentsService } from '../../../../core/agents/service.ts';
import { createSessionActions } from '../../../../core/sessions/actions.ts';
import type { Agent } from '../../../../shared/app/agents.ts';
import { Emitter } from '../../../../shared/app/emitter.ts';
import type { ActionEvent } from '../../../../shared/app/sessions/actions.ts';
import { drivenMonitor, PROFILE, testClient } from '../monitor/support.ts';

export type Watching = Awaited<ReturnType<typeof watchingAgents>>;

/**
 * The agents service over a driven monitor of the sandbox at `url` (polls are the test's:
 * `watch.monitor.pollNow()`), the session actions wired to both as the app wires them.
 */
export async function watchingAgents(
  url: string,
  apiKey: string,
  options: { dataDir?: string; now?: () => number; settleMs?: number } = {},
) {
  const watch = drivenMonitor(url, apiKey, { intervalMs: 3_600_000 });
  const progress = new Emitter<ActionEvent>('the test’s actions');
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'burrow-agents-')));
  const agents = await AgentsService.open({
    dataDir,
    watched: {
      snapshot: () => watch.monitor.snapshot(),
      onEvent: (listener) => watch.monitor.onEvent(listener),
      onSnapshot: (listener) => watch.monitor.onSnapshot(listener),
    },
    sessions: { onAction: (listener) => progress.subscribe(listener) },
    profiles: { state: () => ({ profiles: [{ id: PROFILE }] }), onChange: () => () => undefined },
    ...(options.now && { now: options.now }),
  });
  const actions = createSessionActions({
    client: testClient(url, apiKey),
    profileId: PROFILE,
    monitor: watch.monitor,
    onEvent: (event) => progress.emit(event),
    ...(options.settleMs !== undefined && { settleMs: options.settleMs }),
  });
  const list = (): Agent[] => agents.snapshot(PROFILE).profiles[0]?.agents ?? [];
  return {
    watch,
    agents,
    actions,
    progress,
    dataDir,
    list,
    /** The agent whose session (current or last) is `sessionId`, or whose name is it. */
    agent(which: string): Agent {
      const found = list().find((a) => a.session.id === which || a.name === which);
      if (!found)
        throw new Error(`no agent ${which} in ${JSON.stringify(list().map((a) => a.name))}`);
      return found;
    },
    /** The session the monitor lists with this id, for an action. */
    session(id: string) {
      const found = watch.sessions().find((s) => s.id === id);
      if (!found) throw new Error(`${id} is not listed`);
      return found;
    },
    async close() {
      await agents.close();
      await watch.monitor.close();
    },
  };
}
