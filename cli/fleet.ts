import type { Rollout, RolloutEvent, RolloutOptions } from '../shared/app/fleet.ts';
import type { SessionAction } from '../shared/app/sessions/rules.ts';
import {
  openFleet,
  requireSome,
  selects,
  type Fleet,
  type SelectionValues,
} from './fleet-options.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { CliError, confirm, jsonText, table, UsageError, writeJson, type Io } from './io.ts';
import type { Options } from './args.ts';
import type { Door } from './door.ts';

const refs = (fleet: Fleet) =>
  fleet.selected.map((a) => ({ profileId: a.profileId, agentId: a.id }));

/** `burrow agents`: the selection as a table, or as JSON. */
export function agentsCommand(fleet: Fleet, options: Options, io: Io): number {
  const profile = (id: string) => fleet.accounts.find((a) => a.profileId === id)?.name ?? id;
  if (options.json) {
    writeJson(
      io,
      fleet.selected.map((a) => ({ ...a, profile: profile(a.profileId) })),
    );
    return 0;
  }
  const rows = fleet.selected.map((a) => [
    profile(a.profileId),
    a.name,
    a.state,
    a.session.os,
    a.session.agent_version,
    a.session.region,
    a.state === 'online' ? 'now' : new Date(a.lastSeenAt).toISOString(),
  ]);
  io.stdout.write(
    table([['PROFILE', 'NAME', 'STATE', 'OS', 'VERSION', 'REGION', 'LAST SEEN'], ...rows]),
  );
  return 0;
}

/** `burrow restart|stop|update` with a selection: the impact said and asked, then every agent. */
export async function bulkCommand(
  action: SessionAction,
  fleet: Fleet,
  options: Options,
  io: Io,
): Promise<number> {
  requireSome(fleet);
  const request = { action, agents: refs(fleet) };
  const impact = await fleet.door.call('fleet.impact', request);
  if (impact.included.length === 0) throw new CliError(escapeControls(impact.summary));
  if (options.yes) io.stderr.write(`${escapeControls(impact.summary)}\n`);
  else if (!(await confirm(io, escapeControls(impact.summary), `burrow ${action}`)))
    throw new CliError('Cancelled: nothing was done');
  const result = await fleet.door.call('fleet.run', request);
  if (options.json) writeJson(io, result);
  else
    for (const { name, result: r } of result.results)
      if (r)
        io.stdout.write(escapeControls(`${name}: ${r.ok ? 'ok' : `failed: ${r.reason}`}`) + '\n');
  io.stderr.write(`${escapeControls(result.summary)}\n`);
  return result.results.every((r) => r.result?.ok !== false) ? 0 : 3;
}

/** A step of the rollout for a person. */
function eventLine(event: RolloutEvent): string {
  const who = `${event.agent} (${event.profile})`;
  const version = event.version ?? '?';
  const line = {
    updated: `${who}: updated, waiting for the update to settle`,
    restarting: `${who}: restarting`,
    online: `${who}: online on ${version}`,
    failed: `${who}: failed: ${event.reason ?? ''}`,
    skipped: `${who}: skipped: ${event.reason ?? ''}`,
    done: `${who}: done${event.reason !== undefined ? ` (${event.reason})` : ''}`,
  }[event.event];
  return `${escapeControls(line)}\n`;
}

/** `burrow rollout`: 0 every agent done, 3 stopped or partly done; Ctrl-C cancels. */
export async function rolloutCommand(
  fleet: Fleet,
  rollout: RolloutOptions,
  options: Options,
  io: Io,
): Promise<number> {
  requireSome(fleet);
  const { door } = fleet;
  const impact = await door.call('fleet.impact', { action: 'update', agents: refs(fleet) });
  const question = `Rolling update of ${fleet.selected.length} agents, ${rollout.batch} at a time: ${impact.summary}`;
  if (!options.yes && !(await confirm(io, escapeControls(question), 'burrow rollout')))
    throw new CliError('Cancelled: nothing was done');
  // Heard from before the start: only one rollout runs at a time, so every step is this one's.
  const stopSteps = door.on('rollout.step', (event) => {
    if (options.json) io.stdout.write(`${jsonText(event)}\n`);
    if (!options.json || io.isTTY.stderr) io.stderr.write(eventLine(event));
  });
  let ended: Rollout;
  try {
    ended = await untilEnded(
      door,
      await door.call('rollout.start', { agents: refs(fleet), options: rollout }),
      io,
    );
  } finally {
    stopSteps();
  }
  io.stderr.write(`${escapeControls(ended.line)}\n`);
  for (const agent of ended.agents)
    if (agent.state === 'failed')
      io.stderr.write(
        escapeControls(`failed: ${agent.name} (${agent.profileName}): ${agent.reason ?? ''}`) +
          '\n',
      );
  const allDone = ended.agents.every((a) => a.state === 'done' || a.state === 'restart-yourself');
  return ended.state === 'done' && allDone ? 0 : 3;
}

/**
 * The rollout as it ended, every agent's last state settled (a cancel is told at once, its agents
 * once their steps have stopped); Ctrl-C cancels it (in the app too, when it runs there).
 */
export function untilEnded(door: Door, started: Rollout, io: Io): Promise<Rollout> {
  return new Promise((resolve) => {
    const cancel = () => void door.call('rollout.cancel', started.id).catch(() => undefined);
    const stop = door.on('rollout.changed', (rollout) => {
      if (rollout.id === started.id && rollout.endedAt !== null) finish(rollout);
    });
    const finish = (rollout: Rollout) => {
      stop();
      io.signal?.removeEventListener('abort', cancel);
      resolve(rollout);
    };
    io.signal?.addEventListener('abort', cancel, { once: true });
    // It may have ended before the first change was heard (every agent left out).
    void door.call('rollout.state').then((now) => {
      if (now?.id === started.id && now.endedAt !== null) finish(now);
    });
  });
}

/**
 * `burrow restart|stop|update`: one AGENT as before, or every agent the selection options pick
 * (through the fleet service), never both.
 */
export async function agentOrSelection(
  action: SessionAction,
  agent: string | undefined,
  values: SelectionValues,
  options: Options,
  io: Io,
  one: (agent: string) => Promise<number>,
): Promise<number> {
  const command = action.startsWith('update') ? 'update' : action;
  if (agent !== undefined && selects(values))
    throw new UsageError('give AGENT or selection options, not both', command);
  if (agent !== undefined) return one(agent);
  if (!selects(values))
    throw new UsageError(
      'needs AGENT, or selection options (--all-profiles, --state, --os, --version-below, --name)',
      command,
    );
  const fleet = await openFleet(options, values, io);
  try {
    return await bulkCommand(action, fleet, options, io);
  } finally {
    await fleet.close();
  }
}
