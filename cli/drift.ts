import { DriftSettings } from '../shared/app/ipc/settings.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { DriftService } from '../core/drift/service.ts';
import { osKeychain } from '../core/profiles/keychain.ts';
import type { Plan } from '../core/snapshot/plan.ts';
import { CliError, writeJson, type Io } from './io.ts';
import { planJson, planText } from './plan-view.ts';
import { accountOf, readDocument, serviceOf } from './snapshots.ts';
import type { Target } from './target.ts';

/** The app's drift service over the one account the command line names: the window's door. */
async function driftService(target: Target, io: Io): Promise<DriftService> {
  const drift = new DriftService({
    dataDir: target.dataDir,
    secrets: await osKeychain(io.keychainService),
    snapshots: serviceOf(target),
    settings: () => DriftSettings.parse({}),
    profiles: {
      list: () => [{ id: target.profileId, name: target.profileName ?? target.label }],
      account: async () => accountOf(target),
    },
    stopped: (_, message) => io.stderr.write(`burrow: ${escapeControls(message)}\n`),
  });
  await drift.init();
  return drift;
}

type Found = { readonly summary: string; readonly plan: Plan } | null;

/** Exit 0 and a line when nothing drifted; 2 and the drift as a plan (or JSON) when it did. */
function report(target: Target, against: string, found: Found, io: Io, json: boolean): number {
  if (json) {
    const plan = found === null ? null : planJson(found.plan, target.label);
    writeJson(io, { target: target.label, against, drift: found?.summary ?? null, plan });
  } else if (found === null)
    io.stdout.write(escapeControls(`No drift: ${target.label} matches ${against}.`) + '\n');
  else {
    const heading = `${target.label} drifted from ${against}: ${found.summary} (read as baseline → live)`;
    io.stdout.write(`${escapeControls(heading)}\n${planText(found.plan, target.label)}`);
  }
  return found === null ? 0 : 2;
}

export async function driftCommand(
  target: Target,
  io: Io,
  flags: { readonly set: boolean; readonly baseline?: string; readonly json: boolean },
): Promise<number> {
  const drift = await driftService(target, io);
  try {
    if (flags.baseline !== undefined) {
      const document = await readDocument(serviceOf(target), flags.baseline, io);
      const found = await drift.compareWith(target.profileId, document);
      return report(target, flags.baseline, found, io, flags.json);
    }
    const request = { profileId: target.profileId };
    if (flags.set) {
      const kept = await drift.watch(request);
      io.stderr.write(
        `Kept the configuration of ${target.label} as its baseline (${kept.baselineAt}).\n`,
      );
      return 0;
    }
    if (!drift.status(target.profileId).watching)
      throw new CliError(
        `${target.label} has no baseline: keep one with "burrow drift --set" (or compare with --baseline FILE)`,
      );
    const { lastCheck, drift: found } = await drift.check(request);
    if (lastCheck?.error)
      throw new CliError(`The check of ${target.label} failed: ${lastCheck.error}`);
    const plan = drift.lastPlan(target.profileId);
    const shown = found && plan ? { summary: found.summary, plan } : null;
    return report(target, 'its baseline', shown, io, flags.json);
  } finally {
    drift.close();
  }
}
