import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlannedSnapshot } from '../shared/app/ipc/snapshots.ts';
import type { SnapshotDocument } from '../shared/app/snapshot-document.ts';
import { writeWhole } from '../core/files.ts';
import type { SnapshotAccount } from '../core/snapshot/account.ts';
import { ApplyBlockedError, type ApplyProgress } from '../core/snapshot/apply.ts';
import type { ExportProgress } from '../core/snapshot/export.ts';
import { changesOf } from '../core/snapshot/plan.ts';
import { planView } from '../core/snapshot/view.ts';
import { SnapshotService, type Planned } from '../core/snapshot/service.ts';
import type { StoppedApply } from '../core/snapshot/stopped.ts';
import type { Options } from './args.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { CliError, confirm, writeJson, type Io } from './io.ts';
import { planJson, planText } from './plan-view.ts';
import type { Door, DoorAccount } from './door.ts';
import { openTarget, type Target } from './target.ts';

/*
 * `burrow export|plan|apply`: the window's snapshot service, driven from a terminal. What is
 * here is only how it looks: status lines, the plan as text or JSON, and the question.
 */

/** The service for a command's data folder; tests hand in a stand-in. */
const serviceOf = (target: Target) =>
  new SnapshotService({ dataDir: target.dataDir, holder: 'burrow apply' });

const accountOf = (target: Target): SnapshotAccount => ({
  client: target.client,
  apiUrl: target.apiUrl,
  label: target.label,
  owner: target.owner,
  ...(target.profileName !== undefined && { profileName: target.profileName }),
});

/** One status line on a terminal's stderr, rewritten in place; nothing when it is no terminal. */
function statusLine(io: Io) {
  let shown = false;
  return {
    show(text: string) {
      if (!io.isTTY.stderr) return;
      io.stderr.write(`\r\x1b[K${text}`);
      shown = true;
    },
    end() {
      if (shown) io.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}

/** Reading an account, shown while `work` runs. */
async function reading<T>(
  io: Io,
  work: (onProgress: (p: ExportProgress) => void) => Promise<T>,
): Promise<T> {
  const line = statusLine(io);
  return work((p) =>
    line.show(`Reading ${p.kind} (${p.loaded})… ${p.kindsDone}/${p.totalKinds} kinds`),
  ).finally(() => line.end());
}

/**
 * `burrow export`: the window's export, through the door (inside the app while it runs, so the
 * read shares its rate budget); the text comes back and the command writes it.
 */
export async function exportCommand(options: Options, io: Io): Promise<number> {
  const { openDoor } = await import('./door.ts');
  const { door, accounts } = await openDoor(options, io);
  try {
    const [account] = accounts;
    if (account === undefined) throw new CliError('There is no profile to export');
    const { withSecrets } = options;
    const result = await showingProgress(door, io, (requestId) =>
      door.call('snapshots.export', {
        ...{ profileId: account.profileId, withSecrets, to: 'document' },
        requestId,
      }),
    );
    if (result.status !== 'document') throw new CliError('The export gave no document');
    return await written(result.text, result.resources, labelOf(account, options), options, io);
  } finally {
    await door.close();
  }
}

/** `work` under a status line of the reads it makes (`snapshots.progress`), on a terminal. */
async function showingProgress<T>(
  door: Door,
  io: Io,
  work: (requestId: string) => Promise<T>,
): Promise<T> {
  const line = statusLine(io);
  const requestId = `cli-${process.pid}-${++requests}`;
  const stop = door.on('snapshots.progress', (p) => {
    if (p.requestId === requestId)
      line.show(`Reading ${escapeControls(p.current ?? '')}… ${p.done}/${p.total} kinds`);
  });
  try {
    return await work(requestId);
  } finally {
    stop();
    line.end();
  }
}
let requests = 0;

/** How messages name the account: the profile's name in quotes, or the address. */
const labelOf = (account: DoorAccount, options: Options) =>
  options.apiUrl === undefined ? `"${account.name}"` : account.name;

/** The exported text on stdout, or in the file `--output` names (0600 with secrets). */
async function written(
  text: string,
  count: number,
  label: string,
  options: Options,
  io: Io,
): Promise<number> {
  const { withSecrets } = options;
  if (options.output === undefined) {
    io.stdout.write(text);
    if (withSecrets)
      io.stderr.write(
        'This snapshot holds secrets (client and webhook secrets): keep it private.\n',
      );
    return 0;
  }
  const file = path.resolve(io.cwd, options.output);
  await writeWhole(file, text, withSecrets ? 0o600 : 0o644);
  io.stderr.write(`Wrote ${count} resources of ${label} to ${file}\n`);
  if (withSecrets)
    io.stderr.write(
      `${file} holds secrets (client and webhook secrets): it is readable by you alone (0600); keep it private.\n`,
    );
  return 0;
}

/** A snapshot file's text, or one line saying why it cannot be read. */
export async function readSnapshotText(
  file: string,
  io: Io,
): Promise<{ readonly where: string; readonly text: string }> {
  const where = path.resolve(io.cwd, file);
  try {
    return { where, text: await readFile(where, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : code;
    throw new CliError(`Cannot read ${where}: ${reason ?? (error as Error).message}`);
  }
}

async function readDocument(
  service: SnapshotService,
  file: string,
  io: Io,
): Promise<SnapshotDocument> {
  const { where, text } = await readSnapshotText(file, io);
  return service.open(where, text);
}

/** The snapshot in `file`, or another profile of the app as it is now, against the target. */
async function planned(
  service: SnapshotService,
  target: Target,
  file: string,
  options: Options,
  io: Io,
): Promise<Planned> {
  const prune = options.prune;
  const name = options.fromProfile;
  if (name === undefined) {
    const document = await readDocument(service, file, io);
    const source = path.basename(file);
    return reading(io, (onProgress) =>
      service.plan(document, accountOf(target), { prune, source, onProgress }),
    );
  }
  const from = await openTarget({ ...options, profile: name, apiUrl: undefined }, io);
  try {
    const document = await reading(io, (onProgress) =>
      service.read(accountOf(from), { withSecrets: true, onProgress }),
    );
    return await reading(io, (onProgress) =>
      service.plan(document, accountOf(target), { prune, source: name, onProgress }),
    );
  } finally {
    await from.close();
  }
}

/**
 * The snapshot in `file`, or another profile of the app as it is now (read through its own door
 * with its secrets, as the window's plan reads it), opened and planned through `door`.
 */
async function plannedThrough(
  door: Door,
  account: DoorAccount,
  file: string,
  options: Options,
  io: Io,
): Promise<PlannedSnapshot> {
  const name = options.fromProfile;
  let opened: { fileName: string; text: string };
  if (name === undefined) {
    const { where, text } = await readSnapshotText(file, io);
    opened = { fileName: path.basename(where), text };
  } else {
    const { openDoor } = await import('./door.ts');
    const from = await openDoor({ ...options, profile: name, apiUrl: undefined }, io);
    try {
      const [source] = from.accounts;
      if (source === undefined) throw new CliError(`No profile is named "${name}"`);
      const read = await showingProgress(from.door, io, (requestId) =>
        from.door.call('snapshots.export', {
          ...{ profileId: source.profileId, withSecrets: true, to: 'document' },
          requestId,
        }),
      );
      if (read.status !== 'document') throw new CliError(`${name} gave no document`);
      opened = { fileName: name, text: read.text };
    } finally {
      await from.door.close();
    }
  }
  const { snapshotId } = await door.call('snapshots.open', opened);
  return showingProgress(door, io, (requestId) =>
    door.call('snapshots.plan', {
      source: { type: 'snapshot', snapshotId },
      targetProfileId: account.profileId,
      prune: options.prune,
      requestId,
    }),
  );
}

/** `burrow plan`: the window's plan, through the door; exit 2 when it would change something. */
export async function planCommand(file: string, options: Options, io: Io): Promise<number> {
  const { openDoor } = await import('./door.ts');
  const { door, accounts } = await openDoor(options, io);
  try {
    const [account] = accounts;
    if (account === undefined) throw new CliError('There is no profile to plan against');
    const view = await plannedThrough(door, account, file, options, io);
    const label = labelOf(account, options);
    if (options.json) writeJson(io, planJson(view, label));
    else io.stdout.write(planText(view, label));
    const { create, update, delete: deletes } = view.counts;
    return create + update + deletes > 0 ? 2 : 0;
  } finally {
    await door.close();
  }
}

function applyStatus(io: Io) {
  const line = statusLine(io);
  return {
    onProgress: (p: ApplyProgress) => {
      if (p.step === null) return line.end();
      const left =
        p.remainingMs === null ? '' : ` · about ${Math.ceil(p.remainingMs / 1000)} s left`;
      line.show(
        `[${p.done + 1}/${p.total}] ${p.step.action} ${escapeControls(p.step.name)}${left}`,
      );
    },
    end: () => line.end(),
  };
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });

/** Other applies to the account that stopped: each carries on only with its own snapshot. */
function sayStopped(io: Io, stopped: readonly StoppedApply[]): void {
  for (const s of stopped)
    io.stderr.write(
      `An apply of ${s.source} to ${s.target} stopped on ${day(s.stoppedAt)} ` +
        `(${s.done} of ${s.total} changes made): applying that snapshot again carries it on.\n`,
    );
}

/**
 * What `burrow apply` changed is Burrow's own, not drift: a watched profile keeps it as its
 * baseline, in the running app when there is one. An account given by address is no profile;
 * a baseline that could not be moved is said, and the apply stands.
 */
async function keptAsBaseline(target: Target, options: Options, io: Io): Promise<void> {
  if (options.apiUrl !== undefined) return;
  const { openDoor } = await import('./door.ts');
  try {
    const { door } = await openDoor({ ...options, profile: target.profileName }, io);
    try {
      const state = await door.call('drift.state');
      if (state.find((s) => s.profileId === target.profileId)?.watching === true)
        await door.call('drift.watch', { profileId: target.profileId });
    } finally {
      await door.close();
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr.write(
      `${escapeControls(`The drift baseline of ${target.label} still holds the account before this apply: ${reason}`)}\n`,
    );
  }
}

export async function applyCommand(
  target: Target,
  file: string,
  options: Options,
  io: Io,
  service = serviceOf(target),
): Promise<number> {
  const planning = await planned(service, target, file, options, io);
  const account = accountOf(target);
  const { plan, resumed } = planning;
  const out = options.json ? io.stderr : io.stdout;
  const changes = changesOf(plan).length;
  sayStopped(
    io,
    (await service.stopped(account)).filter((s) => s.journalId !== planning.journalId),
  );
  if (!resumed && changes === 0 && plan.blockers.length === 0) {
    if (options.json) writeJson(io, { ...planJson(planView(plan), target.label), applied: false });
    else out.write(`Nothing to apply: ${target.label} already matches ${file}.\n`);
    return 0;
  }
  // An apply that stopped is carried on from its own plan: that is what will run, so it is shown.
  out.write(planText(planView(plan), target.label));
  if (plan.blockers.length > 0) throw new ApplyBlockedError(plan.blockers);
  const status = applyStatus(io);
  const result = await service
    .apply(planning, account, {
      onProgress: status.onProgress,
      confirm: async (applying) => {
        const total = changesOf(applying.plan).length;
        if (applying.resumed)
          out.write(
            `Carrying on an apply that stopped: ${applying.done} of ${total} changes were made.\n`,
          );
        return options.yes || (await confirm(io, `Apply to ${target.label}?`, 'burrow apply'));
      },
    })
    .finally(status.end);
  await keptAsBaseline(target, options, io);
  if (options.json) writeJson(io, { target: target.label, applied: true, ...result });
  else
    io.stdout.write(
      `Applied to ${target.label}: ${result.created} created, ${result.updated} updated, ` +
        `${result.deleted} deleted, ${result.unchanged} unchanged.\n`,
    );
  return 0;
}
