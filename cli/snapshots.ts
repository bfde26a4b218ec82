import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BridgeCallError } from '../shared/app/ipc/bridge.ts';
import type {
  ApplyOutcome,
  PlannedSnapshot,
  StoppedApplyView,
} from '../shared/app/ipc/snapshots.ts';
import { escapeControls } from '../shared/app/printable.ts';
import { writeWhole } from '../core/files.ts';
import { ApplyBlockedError, ApplyCancelledError } from '../core/snapshot/apply/apply.ts';
import type { Options } from './args.ts';
import type { Door, DoorAccount } from './door.ts';
import { ApplyStoppedError, CliError, confirm, writeJson, type Io } from './io.ts';
import { planJson, planText } from './plan-view.ts';

/*
 * `burrow export|plan|apply`: the window's own `snapshots.*` calls through the door, driven from
 * a terminal. What is here is only how it looks: status lines, the plan as text or JSON, and
 * the question.
 */

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

/**
 * `burrow export`: the window's export, through the door (inside the app while it runs, so the
 * read shares its rate budget); the text comes back and the command writes it.
 */
export async function exportCommand(options: Options, io: Io): Promise<number> {
  const { onTheAccount } = await import('./door.ts');
  return onTheAccount(options, io, 'export', async (door, account, label) => {
    const { withSecrets } = options;
    const result = await showingProgress(door, io, (requestId) =>
      door.call('snapshots.export', {
        ...{ profileId: account.profileId, withSecrets, to: 'document' },
        requestId,
      }),
    );
    if (result.status !== 'document') throw new CliError('The export gave no document');
    return written(result.text, result.resources, label, options, io);
  });
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
  const { onTheAccount } = await import('./door.ts');
  return onTheAccount(options, io, 'plan against', async (door, account, label) => {
    const view = await plannedThrough(door, account, file, options, io);
    if (options.json) writeJson(io, planJson(view, label));
    else io.stdout.write(planText(view, label));
    const { create, update, delete: deletes } = view.counts;
    return create + update + deletes > 0 ? 2 : 0;
  });
}

/** `[3/8] create ipPolicy/office · about 2 s left` on a terminal while an apply runs. */
function showingApply(door: Door, io: Io, requestId: string): () => void {
  const line = statusLine(io);
  const stop = door.on('snapshots.progress', (p) => {
    if (p.requestId !== requestId || p.phase !== 'applying') return;
    if (p.current === null) return line.end();
    const left = p.remainingMs === null ? '' : ` · about ${Math.ceil(p.remainingMs / 1000)} s left`;
    line.show(`[${p.done + 1}/${p.total}] ${escapeControls(p.current)}${left}`);
  });
  return () => {
    stop();
    line.end();
  };
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });

/** Other applies to the account that stopped: each carries on only with its own snapshot. */
function sayStopped(io: Io, stopped: readonly StoppedApplyView[]): void {
  for (const s of stopped)
    io.stderr.write(
      `An apply of ${s.source} to ${s.target} stopped on ${day(s.stoppedAt)} ` +
        `(${s.done} of ${s.total} changes made): applying that snapshot again carries it on.\n`,
    );
}

/** An apply that failed, worded as the command words it: the step, the API's error, what next. */
function failed(outcome: Extract<ApplyOutcome, { ok: false }>): Error {
  const { error, step, done } = outcome;
  if (error.code === 'SNAPSHOT_BLOCKED' || step === null)
    return new BridgeCallError({ code: error.code, message: error.message });
  const ids = [error.code, error.operationId].filter(Boolean).join(', ');
  return new ApplyStoppedError(
    `${step.action} ${step.name} failed after ${done.length} step(s) done: ${error.message} (${ids})`,
  );
}

/**
 * `burrow apply`: the window's plan and apply, through the door (inside the app while it runs:
 * its apply lock, its rate budget, its drift baseline moved after). The plan is shown, asked
 * about on a terminal (or `--yes`), then applied with progress; an apply that stopped is carried
 * on from its own plan.
 */
export async function applyCommand(file: string, options: Options, io: Io): Promise<number> {
  const { onTheAccount } = await import('./door.ts');
  return onTheAccount(options, io, 'apply to', async (door, account, label) => {
    const plan = await plannedThrough(door, account, file, options, io);
    const out = options.json ? io.stderr : io.stdout;
    const { create, update, delete: deletes } = plan.counts;
    const stopped = await door.call('snapshots.stopped', { profileId: account.profileId });
    sayStopped(
      io,
      stopped.filter((s) => s.journalId !== plan.resume?.journalId),
    );
    if (!plan.resumes && create + update + deletes === 0 && plan.blockers.length === 0) {
      if (options.json) writeJson(io, { ...planJson(plan, label), applied: false });
      else
        out.write(`Nothing to apply: ${label} already matches ${options.fromProfile ?? file}.\n`);
      return 0;
    }
    out.write(planText(plan, label));
    if (plan.blockers.length > 0) throw new ApplyBlockedError(plan.blockers);
    if (plan.resume !== undefined)
      out.write(
        `Carrying on an apply that stopped: ${plan.resume.done} of ${create + update + deletes} changes were made.\n`,
      );
    if (!options.yes && !(await confirm(io, `Apply to ${label}?`, 'burrow apply')))
      throw new ApplyCancelledError();
    const requestId = `cli-${process.pid}-apply`;
    const stopShowing = showingApply(door, io, requestId);
    const outcome = await door
      .call('snapshots.apply', { planId: plan.planId, requestId })
      .finally(stopShowing);
    if (!outcome.ok) throw failed(outcome);
    const { ok: _, ...result } = outcome;
    if (options.json) writeJson(io, { target: label, applied: true, ...result });
    else
      io.stdout.write(
        `Applied to ${label}: ${result.created} created, ${result.updated} updated, ` +
          `${result.deleted} deleted, ${result.unchanged} unchanged.\n`,
      );
    return 0;
  });
}
