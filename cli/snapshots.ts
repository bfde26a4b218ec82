import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSnapshot, type SnapshotDocument } from '../shared/snapshot/document.ts';
import { writeWhole } from '../core/files.ts';
import { applyPlan, type ApplyProgress } from '../core/snapshot/apply.ts';
import { exportSnapshot, serializeSnapshot, type ExportProgress } from '../core/snapshot/export.ts';
import { journalFolder, openJournal } from '../core/snapshot/journal.ts';
import { changesOf, planSnapshot, type Plan } from '../core/snapshot/plan.ts';
import { ApplyBlockedError } from '../core/snapshot/apply.ts';
import type { Options } from './args.ts';
import { CliError, confirm, writeJson, type Io } from './io.ts';
import { planJson, planText } from './plan-view.ts';
import { openTarget, type Target } from './target.ts';

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

function exportStatus(io: Io) {
  const line = statusLine(io);
  return {
    onProgress: (p: ExportProgress) =>
      line.show(`Reading ${p.kind} (${p.loaded})… ${p.kindsDone}/${p.totalKinds} kinds`),
    end: () => line.end(),
  };
}

export async function exportCommand(target: Target, options: Options, io: Io): Promise<number> {
  const status = exportStatus(io);
  const document = await exportSnapshot(target.client, {
    apiUrl: target.apiUrl,
    ...(target.profileName !== undefined && { profileName: target.profileName }),
    withSecrets: options.withSecrets,
    onProgress: status.onProgress,
  }).finally(status.end);
  const text = serializeSnapshot(document);
  if (options.output === undefined) {
    io.stdout.write(text);
    if (options.withSecrets)
      io.stderr.write(
        'This snapshot holds secrets (client and webhook secrets): keep it private.\n',
      );
    return 0;
  }
  const file = path.resolve(io.cwd, options.output);
  await writeWhole(file, text, options.withSecrets ? 0o600 : 0o644);
  const count = Object.values(document.resources).reduce((n, list) => n + list.length, 0);
  io.stderr.write(`Wrote ${count} resources of ${target.label} to ${file}\n`);
  if (options.withSecrets)
    io.stderr.write(
      `${file} holds secrets (client and webhook secrets): it is readable by you alone (0600); keep it private.\n`,
    );
  return 0;
}

async function readDocument(file: string, io: Io): Promise<SnapshotDocument> {
  const where = path.resolve(io.cwd, file);
  let text: string;
  try {
    text = await readFile(where, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${where}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${where} is not JSON: ${(error as Error).message}`);
  }
  try {
    return parseSnapshot(json);
  } catch (error) {
    throw new CliError(`${where}: ${(error as Error).message}`);
  }
}

/** A fresh export of an account, with its secrets: for a full comparison, never shown. */
async function readWhole(target: Target, io: Io): Promise<SnapshotDocument> {
  const status = exportStatus(io);
  return exportSnapshot(target.client, {
    apiUrl: target.apiUrl,
    withSecrets: true,
    onProgress: status.onProgress,
  }).finally(status.end);
}

/** The snapshot against a fresh export of the target. */
async function planAgainst(target: Target, file: string, options: Options, io: Io): Promise<Plan> {
  const document = await readDocument(file, io);
  return planSnapshot(document, await readWhole(target, io), { prune: options.prune });
}

/** Another profile of the app, as it is now, against the target. */
async function planProfile(target: Target, name: string, options: Options, io: Io): Promise<Plan> {
  const source = await openTarget({ ...options, profile: name, apiUrl: undefined }, io);
  try {
    const document = await readWhole(source, io);
    return planSnapshot(document, await readWhole(target, io), { prune: options.prune });
  } finally {
    await source.close();
  }
}

export async function planCommand(
  target: Target,
  file: string,
  options: Options,
  io: Io,
): Promise<number> {
  const plan =
    options.fromProfile === undefined
      ? await planAgainst(target, file, options, io)
      : await planProfile(target, options.fromProfile, options, io);
  if (options.json) writeJson(io, planJson(plan, target.label));
  else io.stdout.write(planText(plan, target.label));
  return changesOf(plan).length > 0 ? 2 : 0;
}

function applyStatus(io: Io) {
  const line = statusLine(io);
  return {
    onProgress: (p: ApplyProgress) => {
      if (p.step === null) return line.end();
      const left =
        p.remainingMs === null ? '' : ` · about ${Math.ceil(p.remainingMs / 1000)} s left`;
      line.show(`[${p.done + 1}/${p.total}] ${p.step.action} ${p.step.name}${left}`);
    },
    end: () => line.end(),
  };
}

export async function applyCommand(
  target: Target,
  file: string,
  options: Options,
  io: Io,
): Promise<number> {
  const fresh = await planAgainst(target, file, options, io);
  const journalDir = journalFolder(target.dataDir);
  // An apply that stopped is carried on from its own plan: that is what will run, so it is shown.
  const { journal, resumed } = await openJournal(journalDir, fresh);
  const plan = journal.plan;
  const out = options.json ? io.stderr : io.stdout;
  const changes = changesOf(plan).length;
  if (!resumed && changes === 0 && plan.blockers.length === 0) {
    if (options.json) writeJson(io, { ...planJson(plan, target.label), applied: false });
    else out.write(`Nothing to apply: ${target.label} already matches ${file}.\n`);
    return 0;
  }
  out.write(planText(plan, target.label));
  if (plan.blockers.length > 0) throw new ApplyBlockedError(plan.blockers);
  if (resumed) {
    const done = Object.values(journal.steps).filter((s) => s === 'done').length;
    out.write(`Carrying on an apply that stopped: ${done} of ${changes} changes were made.\n`);
  }
  if (!options.yes && !(await confirm(io, `Apply to ${target.label}?`, 'burrow apply')))
    throw new CliError('Apply cancelled: nothing was changed');
  const status = applyStatus(io);
  const result = await applyPlan(target.client, fresh, {
    journalDir,
    onProgress: status.onProgress,
  }).finally(status.end);
  if (options.json) writeJson(io, { target: target.label, applied: true, ...result });
  else
    io.stdout.write(
      `Applied to ${target.label}: ${result.created} created, ${result.updated} updated, ` +
        `${result.deleted} deleted, ${result.unchanged} unchanged.\n`,
    );
  return 0;
}
