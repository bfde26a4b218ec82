import { AGENT_STATES, type Agent, type AgentState } from '../shared/app/agents.ts';
import { Version, type FleetFilter } from '../shared/app/fleet.ts';
import { filterAgents } from '../shared/app/fleet-filter.ts';
import type { Options, Values } from './args.ts';
import type { Door, DoorAccount } from './door.ts';
import { escapeControls } from '../shared/app/printable.ts';
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

function filterOf(values: SelectionValues): FleetFilter {
  return {
    ...(values.state !== undefined && { states: [values.state as AgentState] }),
    ...(values.os !== undefined && { os: [values.os] }),
    ...(values['version-below'] !== undefined && { versionBelow: values['version-below'] }),
    ...(values.name !== undefined && { name: values.name }),
  };
}

/** The accounts of a command, their agents as Burrow's monitor knows them, and the selection. */
export type Fleet = {
  readonly door: Door;
  readonly accounts: readonly DoorAccount[];
  /** Every agent the selection keeps, offline ones included (as the app's list has them). */
  readonly selected: readonly Agent[];
  close(): Promise<void>;
};

/**
 * An account the monitor could not list: the command fails on it when it is the only one, and
 * says it left it out when there are others (--all-profiles).
 */
async function sayUnlisted(door: Door, accounts: readonly DoorAccount[], io: Io): Promise<void> {
  const { profiles } = await door.call('sessions.snapshot');
  for (const account of accounts) {
    const found = profiles.find((p) => p.profileId === account.profileId);
    if (!found || found.polls > 0 || found.healthReason === null) continue;
    if (accounts.length === 1) throw new CliError(found.healthReason);
    io.stderr.write(
      escapeControls(`burrow: profile "${account.name}" left out: ${found.healthReason}`) + '\n',
    );
  }
}

/** The command's accounts, each polled once, their agents filtered by the selection options. */
export async function openFleet(options: Options, values: SelectionValues, io: Io): Promise<Fleet> {
  // Loaded when a command runs: `burrow --help` and completion read only the declarations.
  const { openDoor } = await import('./door.ts');
  const { door, accounts } = await openDoor(options, io, { all: values['all-profiles'] });
  try {
    const ids = accounts.map((a) => a.profileId);
    await door.polled(ids);
    await sayUnlisted(door, accounts, io);
    const { profiles } = await door.call('agents.snapshot');
    const agents = profiles.filter((p) => ids.includes(p.profileId)).flatMap((p) => p.agents);
    return {
      door,
      accounts,
      selected: filterAgents(agents, filterOf(values)),
      close: () => door.close(),
    };
  } catch (error) {
    await door.close();
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
