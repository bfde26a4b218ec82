import type { Options } from './args.ts';
import { parseCommandLine, usage } from './args.ts';
import { failureLines, table, writeJson, type Io } from './io.ts';
import { actionCommand, sessionsCommand } from './sessions.ts';
import { applyCommand, exportCommand, planCommand } from './snapshots.ts';
import { sshCommand } from './ssh.ts';
import { dataDirOf, keysPresent, openAppProfiles, openTarget, type Target } from './target.ts';

function keyCell(kind: string, present: boolean | undefined): string {
  if (kind === 'local') return 'own';
  if (present === undefined) return '? (no keychain)';
  return present ? 'yes' : 'missing';
}

async function profilesCommand(options: Options, io: Io): Promise<number> {
  const app = await openAppProfiles(dataDirOf(options, io), io);
  const keys = await keysPresent(app);
  const rows = app.profiles.map((p) => ({
    name: p.name,
    address:
      p.kind === 'local' ? 'Local sandbox (in this process while a command runs)' : p.baseUrl,
    kind: p.kind,
    active: p.id === app.activeId,
    // The Local sandbox makes its own key; for the others, undefined when no keychain answers.
    key: p.kind === 'local' ? true : keys?.get(p.id),
  }));
  if (options.json) {
    writeJson(
      io,
      rows.map((r) => ({ ...r, key: r.key ?? null })),
    );
    return 0;
  }
  io.stdout.write(
    table([
      ['', 'NAME', 'ADDRESS', 'KEY'],
      ...rows.map((r) => [r.active ? '*' : '', r.name, r.address, keyCell(r.kind, r.key)]),
    ]),
  );
  return 0;
}

async function withTarget(
  options: Options,
  io: Io,
  run: (target: Target) => Promise<number>,
): Promise<number> {
  const target = await openTarget(options, io);
  try {
    return await run(target);
  } finally {
    await target.close();
  }
}

/**
 * `burrow COMMAND …`: the same profiles, keychain and core as the app. Returns the exit code: 0
 * ok, 1 an error (one line on stderr), 2 a plan with changes.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const invocation = parseCommandLine(argv);
    if (invocation.help) {
      io.stdout.write(usage(invocation.command));
      return 0;
    }
    const { command, args, options } = invocation;
    const [arg = ''] = args;
    switch (command) {
      case 'profiles':
        return await profilesCommand(options, io);
      case 'sessions':
        return await withTarget(options, io, (t) => sessionsCommand(t, options, io));
      case 'restart':
      case 'stop':
      case 'update':
        return await withTarget(options, io, (t) => actionCommand(command, t, arg, options, io));
      case 'export':
        return await withTarget(options, io, (t) => exportCommand(t, options, io));
      case 'plan':
        return await withTarget(options, io, (t) => planCommand(t, arg, options, io));
      case 'apply':
        return await withTarget(options, io, (t) => applyCommand(t, arg, options, io));
      case 'ssh':
        return await withTarget(options, io, (t) => sshCommand(t, arg, args[1] ?? '', options, io));
    }
  } catch (error) {
    io.stderr.write(
      failureLines(error)
        .map((line) => `burrow: ${line}\n`)
        .join(''),
    );
    return 1;
  }
}
