import path from 'node:path';
import type { PlanView } from '../shared/app/ipc/snapshots.ts';
import { escapeControls } from '../shared/app/printable.ts';
import type { Options } from './args.ts';
import type { Door } from './door.ts';
import { CliError, writeJson, type Io } from './io.ts';
import { planJson, planText } from './plan-view.ts';
import { readSnapshotText } from './snapshots.ts';

type Found = { readonly summary: string; readonly changes: PlanView } | null;

/** Exit 0 and a line when nothing drifted; 2 and the drift as a plan (or JSON) when it did. */
function report(label: string, against: string, found: Found, io: Io, json: boolean): number {
  if (json) {
    const plan = found === null ? null : planJson(found.changes, label);
    writeJson(io, { target: label, against, drift: found?.summary ?? null, plan });
  } else if (found === null)
    io.stdout.write(escapeControls(`No drift: ${label} matches ${against}.`) + '\n');
  else {
    const heading = `${label} drifted from ${against}: ${found.summary} (read as baseline → live)`;
    io.stdout.write(`${escapeControls(heading)}\n${planText(found.changes, label)}`);
  }
  return found === null ? 0 : 2;
}

type Flags = { readonly set: boolean; readonly baseline?: string; readonly json: boolean };

/** What the command asks of the drift watch, through the door: the app's, or its own. */
async function run(door: Door, profileId: string, label: string, flags: Flags, io: Io) {
  if (flags.baseline !== undefined) {
    const { where, text } = await readSnapshotText(flags.baseline, io);
    const fileName = path.basename(where);
    const { snapshotId } = await door.call('snapshots.open', { fileName, text });
    const found = await door.call('drift.compare', { profileId, snapshotId });
    return report(label, flags.baseline, found, io, flags.json);
  }
  if (flags.set) {
    const kept = await door.call('drift.watch', { profileId });
    io.stderr.write(`Kept the configuration of ${label} as its baseline (${kept.baselineAt}).\n`);
    return 0;
  }
  const watched = (await door.call('drift.state')).find((s) => s.profileId === profileId);
  if (watched?.watching !== true) return noBaseline(label);
  // A baseline damaged since is set aside by this check: alone, Burrow said why as it did; inside
  // the app, the app said it in its own record, and the command says it here.
  const checked = await door.call('drift.check', { profileId });
  if (!checked.watching) {
    if (door.via === 'app' && checked.stoppedWhy !== undefined)
      io.stderr.write(`burrow: ${escapeControls(checked.stoppedWhy)}\n`);
    return noBaseline(label);
  }
  const { lastCheck, drift } = checked;
  if (lastCheck?.error) throw new CliError(`The check of ${label} failed: ${lastCheck.error}`);
  return report(label, 'its baseline', drift, io, flags.json);
}

function noBaseline(label: string): never {
  throw new CliError(
    `${label} has no baseline: keep one with "burrow drift --set" (or compare with --baseline FILE)`,
  );
}

/**
 * `burrow drift`: the app's drift watch (its baselines, the person's drift settings), inside the
 * app while it runs, else in a Burrow of the command's own.
 */
export async function driftCommand(options: Options, io: Io, flags: Flags): Promise<number> {
  const { onTheAccount } = await import('./door.ts');
  return onTheAccount(options, io, 'check', (door, account, label) =>
    run(door, account.profileId, label, flags, io),
  );
}
