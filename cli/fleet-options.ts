import type { TunnelSession } from '../shared/api/tunnel-sessions.ts';
import { agentId, AGENT_STATES, type Agent, type AgentState } from '../shared/app/agents.ts';
import { Version, type FleetFilter } from '../shared/app/fleet.ts';
import { filterAgents } from '../shared/app/fleet-filter.ts';
import { agentDisplayName, agentKey } from '../shared/app/monitor.ts';
import type { ApiClient } from '../core/api/index.ts';
import type { Options, Values } from './args.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { dataDirOf, openAppProfiles } from './app-profiles.ts';
import { CliError, type Io } from './io.ts';

/** The options that pick agents, declared once for agents, restart, stop, update and rollout. */
export const SELECTION_OPTIONS = {
  'all-profiles': { type: 'boolean', help: "every profile's agents, not only one profile's" },
  state: {
    type: 'string',
    value: 'STATE',
    help: `only agents in this state (${AGENT_STATES.join(', ')})`,
  },
  os: { type: 'string', value: 'OS', help: 'only agents on this OS (linux, darwin, windows…)' },
  'version-below': {
    type: 'string',
    value: 'X.Y.Z',
    help: 'only agents on a version below this one',
  },
  name: { type: 'string', value: 'GLOB', help: 'only agents whose name matches (build-*, *box?)' },
} as const;

export type SelectionValues = Values<typeof SELECTION_OPTIONS>;

export const SELECTION_DETAILS =
  'Without AGENT, the selection options (--all-profiles, --state, --os, --version-below, ' +
  '--name) pick the agents: the command says what it will do to them, and asks first unless --yes.';

export const AGENT_DETAILS =
  'AGENT is an agent name (as "burrow sessions" shows it) or a session id; a name that more ' +
  'than one session has must be given as a session id.';

/** Whether any option narrows the selection (an AGENT argument is then not expected). */
export function selects(values: SelectionValues): boolean {
  return (
    values['all-profiles'] ||
    [values.state, values.os, values['version-below'], values.name].some((v) => v !== undefined)
  );
}

/** The refusal of a selection option that cannot be read, naming it. */
export function selectionRefusal(values: SelectionValues): string | undefined {
  const state = values.state;
  if (state !== undefined && !(AGENT_STATES as readonly string[]).includes(state))
    return `--state must be one of ${AGENT_STATES.join(', ')}`;
  const below = values['version-below'];
  if (below !== undefined && !Version.safeParse(below).success)
    return '--version-below must look like 3.2.1';
  if (values.os !== undefined && !/^[\w.-]{1,32}$/.test(values.os))
    return '--os must be an OS name such as linux, darwin or windows';
  if (values.name !== undefined && (values.name === '' || values.name.length > 200))
    return '--name must be a glob of 1 to 200 characters';
  return undefined;
}

export function filterOf(values: SelectionValues): FleetFilter {
  return {
    ...(values.state !== undefined && { states: [values.state as AgentState] }),
    ...(values.os !== undefined && { os: [values.os] }),
    ...(values['version-below'] !== undefined && { versionBelow: values['version-below'] }),
    ...(values.name !== undefined && { name: values.name }),
  };
}

/** A listed session as an agent of the fleet: online now, nothing known of its past. */
export function sessionAgent(profileId: string, session: TunnelSession, now: number): Agent {
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

/** One profile (or address) of the command, its client, and what one listing found on it. */
export type FleetAccount = {
  readonly profileId: string;
  readonly name: string;
  readonly client: ApiClient;
  readonly sessions: readonly TunnelSession[];
};

export type Fleet = {
  readonly accounts: readonly FleetAccount[];
  /** Every listed agent the selection keeps. */
  readonly selected: readonly Agent[];
  close(): Promise<void>;
};

async function allProfiles(options: Options, io: Io) {
  const { openProfileService } = await import('./target.ts');
  const dataDir = dataDirOf(options, io);
  const app = await openAppProfiles(dataDir, io);
  const service = await openProfileService(app, dataDir, io);
  const opened = await Promise.all(
    app.profiles.map(async (profile) => {
      try {
        const { client } = await service.client(profile.id);
        return [{ profileId: profile.id, name: profile.name, client }];
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        io.stderr.write(
          escapeControls(`burrow: profile "${profile.name}" left out: ${reason}`) + '\n',
        );
        return [];
      }
    }),
  );
  return { clients: opened.flat(), close: () => service.close() };
}

/** The command's accounts listed once, their agents filtered by the selection options. */
export async function openFleet(options: Options, values: SelectionValues, io: Io): Promise<Fleet> {
  // Loaded when a command runs, as in withTarget.
  const { openTarget } = await import('./target.ts');
  const opened = values['all-profiles']
    ? await allProfiles(options, io)
    : await openTarget(options, io).then((target) => ({
        clients: [
          {
            profileId: target.profileId,
            name: target.profileName ?? target.label,
            client: target.client,
          },
        ],
        close: () => target.close(),
      }));
  try {
    const now = Date.now();
    const accounts = await Promise.all(
      opened.clients.map(async (account) => ({
        ...account,
        sessions: await account.client.tunnelSessions.listAll(),
      })),
    );
    const agents = accounts.flatMap((a) =>
      a.sessions.map((s) => sessionAgent(a.profileId, s, now)),
    );
    return { accounts, selected: filterAgents(agents, filterOf(values)), close: opened.close };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** Refuses an empty selection, saying what was asked. */
export function requireSome(fleet: Fleet): void {
  if (fleet.selected.length === 0)
    throw new CliError(
      'No agent matches the selection ("burrow agents" with the same options lists them)',
    );
}
